// The permission matrix: every protected route with the level it needs, called with no token, a revoked token and
// a token of each level; the game login's Bearer routes with web tokens and a game token. A route the service has but
// this table lacks fails the test.
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
  'GET /api/home/app-passwords': 'player',
  'POST /api/home/app-passwords': 'player',
  'DELETE /api/home/app-passwords/:id': 'player',
  'GET /api/home/passkeys': 'player',
  'POST /api/home/passkeys/options': 'player',
  'POST /api/home/passkeys': 'player',
  'PATCH /api/home/passkeys/:id': 'player',
  'DELETE /api/home/passkeys/:id': 'player',
  'POST /api/home/skins': 'player',
  'GET /api/home/skins': 'player',
  'GET /api/home/capes': 'player',
  'POST /api/home/capes': 'player',
  'DELETE /api/home/capes/:uuid': 'player',
  'POST /api/home/skins/:uuid/publish': 'player',
  'DELETE /api/home/skins/:uuid/publish': 'player',
  'POST /api/home/capes/:uuid/publish': 'player',
  'DELETE /api/home/capes/:uuid/publish': 'player',
  'POST /api/library/:id/save': 'player',
  'DELETE /api/library/:id/save': 'player',
  'GET /api/admin/texture-blocks': 'admin',
  'POST /api/admin/texture-blocks': 'admin',
  'DELETE /api/admin/texture-blocks/:digest': 'admin',
  'POST /api/library/:id/reports': 'player',
  'POST /api/library/:id/report': 'player',
  'GET /api/admin/reports': 'moderator',
  'POST /api/admin/reports/:id/actions': 'moderator',
  'PATCH /api/admin/reports/:id': 'moderator',
  'GET /api/home/library': 'player',
  'GET /api/admin/library': 'moderator',
  'PATCH /api/admin/library/:id': 'moderator',
  'POST /api/home/oidc/:id': 'player',
  'DELETE /api/home/oidc/:id': 'player',
  // With MOJANG_FALLBACK skins or auth (contract section 20).
  'GET /api/home/premium': 'registering',
  'POST /api/home/premium/challenge': 'registering',
  'POST /api/home/premium/verify': 'player',
  'DELETE /api/home/premium': 'player',
  'POST /api/home/premium/profile': 'player',
  'POST /api/home/skins/import-premium': 'player',
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
  'DELETE /api/admin/user/:identifier/oidc/:id': 'admin',
  'DELETE /api/admin/user/:identifier/passkeys': 'admin',
  'DELETE /api/admin/user/:identifier/premium': 'admin',
  'GET /api/admin/user/:identifier/profiles': 'admin',
  'POST /api/admin/user/:identifier/profiles': 'admin',
  'PATCH /api/admin/user/:identifier/profiles/:uuid': 'admin',
  'DELETE /api/admin/user/:identifier/profiles/:uuid': 'admin',
  'POST /api/admin/user/:identifier/profiles/:uuid/transfer': 'admin',
  'GET /api/home/profiles': 'player',
  'POST /api/home/profiles': 'player',
  'PATCH /api/home/profiles/:uuid': 'player',
  'DELETE /api/home/profiles/:uuid': 'player',
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
  'GET /api/admin/hardware/status': 'moderator',
  'PATCH /api/admin/hardware/:id': 'admin',
  'GET /api/admin/dashboard': 'moderator',
  'GET /api/admin/registration': 'moderator',
  'PUT /api/admin/registration': 'owner',
  'GET /api/admin/invites': 'moderator',
  'POST /api/admin/invites': 'admin',
  'DELETE /api/admin/invites/:id': 'admin',
  'GET /api/home/oauth/grants': 'player',
  'DELETE /api/home/oauth/grants/:id': 'player',
  'POST /api/oauth/request': 'player',
  'POST /api/oauth/consent': 'player',
  'GET /api/admin/oauth/clients': 'moderator',
  'POST /api/admin/oauth/clients': 'admin',
  'PATCH /api/admin/oauth/clients/:id': 'admin',
  'DELETE /api/admin/oauth/clients/:id': 'admin',
  'PUT /api/yggdrasil/api/user/profile/:uuid/:texture': 'game',
  'DELETE /api/yggdrasil/api/user/profile/:uuid/:texture': 'game',
  'POST /api/yggdrasil/minecraftservices/player/certificates': 'game',
  'POST /api/admin/user/:identifier/bans': 'admin',
  'GET /api/admin/user/:identifier/bans': 'moderator',
  'DELETE /api/admin/user/:identifier/bans/:ban': 'admin',
  'GET /api/yggdrasil/minecraftservices/player/attributes': 'game',
  'POST /api/yggdrasil/minecraftservices/player/attributes': 'game',
  'PUT /api/yggdrasil/minecraftservices/player/attributes': 'game',
  'GET /api/yggdrasil/minecraftservices/privileges': 'game',
  'GET /api/yggdrasil/minecraftservices/minecraft/profile': 'game',
  'POST /api/yggdrasil/minecraftservices/minecraft/profile/skins': 'game',
  'DELETE /api/yggdrasil/minecraftservices/minecraft/profile/skins/active': 'game',
  'PUT /api/yggdrasil/minecraftservices/minecraft/profile/capes/active': 'game',
  'DELETE /api/yggdrasil/minecraftservices/minecraft/profile/capes/active': 'game',
  'PUT /api/yggdrasil/minecraftservices/minecraft/profile/name/:name': 'game',
  'GET /api/yggdrasil/minecraftservices/minecraft/profile/name/:name/available': 'game',
  'GET /api/yggdrasil/minecraftservices/minecraft/profile/namechange': 'game',
  'GET /api/admin/blocked-servers': 'admin',
  'POST /api/admin/blocked-servers': 'admin',
  'DELETE /api/admin/blocked-servers/:id': 'admin',
  'GET /api/home/blocks': 'player',
  'GET /api/home/bans': 'player',
  'POST /api/home/blocks': 'player',
  'DELETE /api/home/blocks/:uuid': 'player',
  'GET /api/yggdrasil/minecraftservices/privacy/blocklist': 'game',
  'GET /api/home/friends': 'player',
  'POST /api/home/friends': 'player',
  'DELETE /api/home/friends/:uuid': 'player',
  'GET /api/yggdrasil/minecraftservices/friends': 'game',
  'PUT /api/yggdrasil/minecraftservices/friends': 'game',
  'POST /api/yggdrasil/minecraftservices/presence': 'game',
  'GET /api/yggdrasil/minecraftservices/player/friends': 'game',
  'PUT /api/yggdrasil/minecraftservices/player/friends': 'game',
  'POST /api/yggdrasil/minecraftservices/player/presence': 'game',
  // Reports from the game and forced actions (gamerep).
  'POST /api/yggdrasil/minecraftservices/player/report': 'game',
  'GET /api/admin/game-reports': 'moderator',
  'POST /api/admin/game-reports/:id/actions': 'moderator',
  'GET /api/admin/profiles/:uuid/forced-actions': 'moderator',
  'POST /api/admin/profiles/:uuid/forced-actions': 'moderator',
  'DELETE /api/admin/profiles/:uuid/forced-actions/:action': 'moderator',
};

/** Routes after which the caller's token no longer works: each level logs in again after them. */
const ENDS_SESSIONS = new Set(['POST /api/auth/logout', 'DELETE /api/home/sessions']);

const NEEDED: Record<Exclude<Access, 'public' | 'game'>, number> = { registering: 0, player: 0, moderator: 1, admin: 2, owner: 3 };

describeEachDatabase('permission matrix', (kind) => {
  let service: TestService;
  const tokens = new Map<number, string>();
  const logins = new Map<number, () => Promise<string>>();
  let revoked: string;
  let gameToken: string;
  let targetId: number;
  before(async () => {
    service = await startService(kind, {
      settings: {
        owner: OWNER,
        userCapes: true,
        friends: true,
        // The premium link's routes; Mojang at an address where nothing listens (no call here reaches it).
        fallback: {
          mode: 'skins',
          cacheTtlSeconds: 600,
          premiumReclaim: false,
          premiumImport: true,
          sources: [
            { kind: 'mojang', name: 'Mojang', sessionUrl: 'http://127.0.0.1:9', apiUrl: 'http://127.0.0.1:9', texturesHost: '127.0.0.1' },
          ],
        },
      },
    });
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
    const gamer = await service.registerPlayer();
    const gameLogin = { username: gamer.username, password: gamer.password };
    gameToken = (await service.call('POST', '/api/yggdrasil/authserver/authenticate', { body: gameLogin })).body.accessToken;
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
        .replace(':texture', 'skin')
        .replace(':id', '1');
      const body = method === 'GET' || route === 'DELETE /api/home/skins/:uuid' ? undefined : {};
      const call = (token?: string) => service.call(method, url, { token, body });
      assert.equal((await call()).status, 401, `${route} without a token`);
      assert.equal((await call(revoked)).status, 401, `${route} with a revoked token`);
      if (access === 'game') {
        for (const [level, token] of tokens) assert.equal((await call(token)).status, 401, `${route}: a web token (level ${level})`);
        assert.notEqual((await call(gameToken)).status, 401, `${route} with a game token`);
        continue;
      }
      assert.equal((await call(tokens.get(-1))).status, 403, `${route} banned`);
      for (const level of [0, 1, 2, 3]) {
        const { status, headers } = await call(tokens.get(level));
        if (level < NEEDED[access]) assert.equal(status, 403, `${route} at level ${level}`);
        // A route that asks for the current password answers the empty body with 401 too, in its own words (the
        // password is wrong), which is no refusal of the token.
        else if (status === 401) assert.match(String(headers['x-error-key']), /passwordWrong$/, `${route} at level ${level} gave 401`);
        else assert.notEqual(status, 403, `${route} at level ${level} gave 403`);
      }
      if (ENDS_SESSIONS.has(route)) for (const [level, login] of logins) tokens.set(level, await login());
    }
  });

  it('lets a temporary owner act at its level but never appoint, demote or ban; the permanent owner may', async () => {
    const holder = await service.registerPlayer();
    const holderId = (await service.db.selectFrom('users').select('id').where('username', '=', holder.username).executeTakeFirstOrThrow())
      .id;
    const owner = tokens.get(3)!;
    const grant = { role_level: 3, expired_at: Math.floor(Date.now() / 1000) + 3600 };
    assert.equal((await service.call('POST', `/api/admin/user/role/${holderId}`, { token: owner, body: grant })).status, 200);
    assert.equal((await service.call('GET', '/api/admin/users', { token: holder.token })).status, 200, 'reads as an owner');
    const appointing: [string, string, object][] = [
      ['PATCH', `/api/admin/user/${targetId}`, { perms: -1 }],
      ['PATCH', `/api/admin/user/${targetId}`, { perms: 1 }],
      ['POST', `/api/admin/user/role/${targetId}`, { role_level: 1 }],
      ['PATCH', `/api/admin/user/${holderId}`, { perms: 3 }],
    ];
    for (const [method, url, body] of appointing) {
      assert.equal(
        (await service.call(method, url, { token: holder.token, body })).status,
        403,
        `${method} ${url} ${JSON.stringify(body)}`,
      );
    }
    for (const [method, url, body] of appointing.slice(0, 3)) {
      assert.equal(
        (await service.call(method, url, { token: owner, body })).status,
        200,
        `owner: ${method} ${url} ${JSON.stringify(body)}`,
      );
    }
    await service.db.updateTable('users').set({ perms: 0 }).where('id', '=', targetId).execute();
    await service.db.deleteFrom('role_grants').where('user_id', 'in', [targetId, holderId]).execute();
  });
});
