// The permission matrix: every protected route with the level it needs, called with no token, a revoked token and
// a token of each level. A route the service has but this table lacks fails the test.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { Access } from '../accounts/authenticate.ts';
import { describeEachDatabase } from '../../test/support/databases.ts';
import { OWNER, startService, type TestService } from '../../test/support/service.ts';

const MATRIX: Record<string, Exclude<Access, 'public'>> = {
  'POST /api/auth/logout': 'registering',
  'POST /api/home/registerfinish': 'registering',
  'GET /api/home': 'registering',
  'PATCH /api/home': 'player',
  'DELETE /api/home': 'player',
  'GET /api/home/sessions': 'player',
  'DELETE /api/home/sessions': 'player',
  'POST /api/home/skins': 'player',
  'GET /api/home/skins': 'player',
  'GET /api/home/capes': 'player',
  'PATCH /api/home/skins/:uuid': 'player',
  'DELETE /api/home/skins/:uuid': 'player',
  'POST /api/home/2fa': 'player',
  'POST /api/home/2fa/confirm': 'player',
  'DELETE /api/home/2fa': 'player',
  'POST /api/home/discord': 'player',
  'DELETE /api/home/discord': 'player',
  'GET /api/admin/users': 'moderator',
  'GET /api/admin/user/:identifier': 'moderator',
  'PATCH /api/admin/user/:identifier': 'admin',
  'DELETE /api/admin/user/:identifier/2fa': 'admin',
  'POST /api/admin/user/role/:identifier': 'owner',
  'GET /api/admin/user/role/:identifier': 'moderator',
  'DELETE /api/admin/user/role/:identifier': 'owner',
  'POST /api/admin/mail': 'owner',
  'GET /api/admin/audit': 'moderator',
  'GET /api/admin/skins': 'moderator',
  'PATCH /api/admin/skin/:uuid': 'admin',
  'DELETE /api/admin/skin/:uuid': 'admin',
  'GET /api/admin/users/skin/:uuid': 'moderator',
  'POST /api/admin/user/cape/upload': 'admin',
  'DELETE /api/admin/user/cape/upload': 'admin',
  'POST /api/admin/user/cape/:identifier': 'admin',
  'GET /api/admin/allcapes': 'moderator',
  'GET /api/admin/hardware': 'moderator',
  'PATCH /api/admin/hardware/:id': 'admin',
  'GET /api/admin/dashboard': 'moderator',
  'GET /api/admin/registration': 'moderator',
  'PUT /api/admin/registration': 'owner',
  'GET /api/admin/invites': 'moderator',
  'POST /api/admin/invites': 'admin',
  'DELETE /api/admin/invites/:id': 'admin',
};

/** Routes after which the caller's token no longer works: each level logs in again after them. */
const ENDS_SESSIONS = new Set(['POST /api/auth/logout', 'DELETE /api/home/sessions']);

const NEEDED: Record<Exclude<Access, 'public'>, number> = { registering: 0, player: 0, moderator: 1, admin: 2, owner: 3 };

describeEachDatabase('permission matrix', (kind) => {
  let service: TestService;
  const tokens = new Map<number, string>();
  const logins = new Map<number, () => Promise<string>>();
  let revoked: string;
  let targetId: number;
  before(async () => {
    service = await startService(kind, { settings: { owner: OWNER } });
    for (const perms of [0, 1, 2, -1]) {
      const player = await service.registerPlayer();
      await service.db.updateTable('users').set({ perms }).where('username', '=', player.username).execute();
      tokens.set(perms, player.token);
      const body = { username: player.username, password: player.password };
      if (perms >= 0) logins.set(perms, async () => (await service.call('POST', '/api/auth/login', { body })).body.data.jwt);
    }
    tokens.set(3, await service.ownerToken());
    logins.set(3, () => service.ownerToken());
    const target = await service.registerPlayer();
    targetId = (await service.db.selectFrom('users').select('id').where('username', '=', target.username).executeTakeFirstOrThrow()).id;
    const gone = await service.registerPlayer();
    await service.call('POST', '/api/auth/logout', { token: gone.token });
    revoked = gone.token;
  });
  after(async () => service?.close());

  it('lists every protected route the service has', () => {
    const protectedRoutes = [...service.app.routeAccess].filter(([, access]) => access !== 'public');
    assert.deepEqual(Object.fromEntries(protectedRoutes.sort()), Object.fromEntries(Object.entries(MATRIX).sort()));
  });

  it('answers each route by level: 401 without a valid token, 403 below the level, neither at or above it', async () => {
    for (const [route, access] of Object.entries(MATRIX)) {
      const [method, path] = route.split(' ') as [string, string];
      // The target is a player, so that an allowed call is not refused by the rule on equal levels.
      const url = path
        .replace(':identifier', String(targetId))
        .replace(':uuid', '00000000-0000-4000-8000-000000000000')
        .replace(':id', '1');
      const body = method === 'GET' || route === 'DELETE /api/home/skins/:uuid' ? undefined : {};
      const call = (token?: string) => service.call(method, url, { token, body });
      assert.equal((await call()).status, 401, `${route} without a token`);
      assert.equal((await call(revoked)).status, 401, `${route} with a revoked token`);
      assert.equal((await call(tokens.get(-1))).status, 403, `${route} banned`);
      for (const level of [0, 1, 2, 3]) {
        const { status } = await call(tokens.get(level));
        if (level < NEEDED[access]) assert.equal(status, 403, `${route} at level ${level}`);
        else assert.ok(status !== 401 && status !== 403, `${route} at level ${level} gave ${status}`);
      }
      if (ENDS_SESSIONS.has(route)) for (const [level, login] of logins) tokens.set(level, await login());
    }
  });
});
