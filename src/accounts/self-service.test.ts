import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import { ManualClock } from '../../test/support/clock.ts';
import { describeEachDatabase } from '../../test/support/databases.ts';
import { skinFile } from '../../test/support/fixtures.ts';
import { LaunchServerRequester } from '../../test/support/launchserver.ts';
import { OWNER, PUBLIC_URL, randomAddress, startService, type TestService } from '../../test/support/service.ts';

const GRAVIT_TOKEN = 'launchserver-shared-secret-0123';

describeEachDatabase('account self-service', (kind) => {
  const clock = new ManualClock();
  let service: TestService;
  let launchServer: LaunchServerRequester;
  before(async () => {
    service = await startService(kind, { clock, settings: { owner: OWNER, gravitToken: GRAVIT_TOKEN } });
    launchServer = new LaunchServerRequester(service, GRAVIT_TOKEN);
  });
  after(async () => service?.close());

  const yggdrasil = (path: string, body: unknown) => service.call('POST', `/api/yggdrasil/${path}`, { body, ip: randomAddress() });
  /** A player logged in on the web, in the game and in a launcher. */
  const playerEverywhere = async () => {
    const player = await service.registerPlayer();
    const game = await yggdrasil('authserver/authenticate', { username: player.mail, password: player.password });
    assert.equal(game.status, 200);
    const launcher = await launchServer.post('authorize', { login: player.username, password: player.password });
    assert.ok(launcher.ok, JSON.stringify(launcher));
    return { ...player, gameToken: game.body.accessToken as string, launcherToken: launcher.result.accessToken as string };
  };
  const userRow = (mail: string) => service.db.selectFrom('users').selectAll().where('mail', '=', mail).executeTakeFirst();
  const textureFile = (digest: string) => join(service.settings.dataDir, 'textures', digest.slice(0, 2), `${digest}.png`);

  it('lists the web session (current), the game token and the launcher session, without any token', async () => {
    const player = await playerEverywhere();
    const other = await service.call('POST', '/api/auth/login', { body: { username: player.username, password: player.password } });
    const listed = await service.call('GET', '/api/home/sessions', { token: player.token });
    assert.equal(listed.status, 200);
    const sessions = listed.body.data as { kind: string; current: boolean; created: number; expires: number }[];
    assert.deepEqual(
      sessions.map(({ kind, current }) => ({ kind, current })),
      [
        { kind: 'web', current: true },
        { kind: 'web', current: false },
        { kind: 'game', current: false },
        { kind: 'launcher', current: false },
      ],
    );
    const nowSeconds = Math.floor(clock.now() / 1000);
    for (const session of sessions) {
      assert.equal(session.created, nowSeconds);
      assert.ok(session.expires > nowSeconds);
    }
    assert.ok(!listed.raw.toString().includes(player.gameToken) && !listed.raw.toString().includes(other.body.data.jwt));

    await service.call('POST', '/api/auth/logout', { token: other.body.data.jwt });
    const after = await service.call('GET', '/api/home/sessions', { token: player.token });
    assert.deepEqual(
      after.body.data.map((session: { kind: string }) => session.kind),
      ['web', 'game', 'launcher'],
      'a revoked session is no longer listed',
    );
  });

  it('logs out everywhere: the web token, the game token and the launcher session all end', async () => {
    const player = await playerEverywhere();
    const loggedOut = await service.call('DELETE', '/api/home/sessions', { token: player.token });
    assert.equal(loggedOut.status, 200);
    assert.deepEqual(loggedOut.body, { error: false, msg: loggedOut.body.msg, url: `${PUBLIC_URL}/login`, data: {} });

    assert.equal((await service.call('GET', '/api/home', { token: player.token })).status, 401);
    assert.equal((await yggdrasil('authserver/validate', { accessToken: player.gameToken })).status, 403);
    const launcher = await launchServer.post('getbytoken', { accessToken: player.launcherToken });
    assert.ok(!launcher.ok && launcher.error.code === 1000, JSON.stringify(launcher));

    const row = await userRow(player.mail);
    const audited = await service.db
      .selectFrom('audit_log')
      .select('iss')
      .where('action', '=', 'user.logout_everywhere')
      .where('target_id', '=', row!.id)
      .execute();
    assert.deepEqual(audited, [{ iss: player.username }]);
  });

  it('deletes the account only with the right password, freeing the textures no one else uses', async () => {
    const player = await playerEverywhere();
    const neighbour = await service.registerPlayer();
    assert.equal((await service.upload('/api/home/skins', player.token, {}, skinFile('slim'))).status, 200);
    assert.equal((await service.upload('/api/home/skins', player.token, {}, skinFile('classic'))).status, 200);
    assert.equal((await service.upload('/api/home/skins', neighbour.token, {}, skinFile('classic'))).status, 200);
    const { id } = (await userRow(player.mail))!;
    const digests = async (userId: number) =>
      (await service.db.selectFrom('skins').select('texture_digest').where('user_id', '=', userId).orderBy('id').execute()).map(
        (skin) => skin.texture_digest,
      );
    const [own, shared] = await digests(id);

    const wrong = await service.call('DELETE', '/api/home', { token: player.token, body: { password: 'not the password' } });
    assert.equal(wrong.status, 401);
    assert.equal(wrong.body.msg, 'password is wrong');
    assert.ok(await userRow(player.mail), 'a wrong password deletes nothing');
    assert.equal((await digests(id)).length, 2);
    assert.ok(existsSync(textureFile(own!)));
    assert.equal((await service.call('GET', '/api/home', { token: player.token })).status, 200, 'and ends no session');

    const missing = await service.call('DELETE', '/api/home', { token: player.token, body: {} });
    assert.equal(missing.status, 400);

    const deleted = await service.call('DELETE', '/api/home', { token: player.token, body: { password: player.password } });
    assert.equal(deleted.status, 200);
    assert.deepEqual(deleted.body, { error: false, msg: deleted.body.msg, url: `${PUBLIC_URL}/`, data: {} });

    assert.equal(await userRow(player.mail), undefined);
    assert.deepEqual(await digests(id), []);
    assert.ok(!existsSync(textureFile(own!)), 'the texture only this player had is gone');
    assert.ok(existsSync(textureFile(shared!)), "the neighbour's texture stays");
    const neighbourSkin = await service.call('GET', `/api/skin/head/${neighbour.username}`);
    assert.equal(neighbourSkin.status, 200);
    for (const table of ['sessions', 'game_tokens', 'launcher_sessions'] as const) {
      const left = await service.db.selectFrom(table).select('id').where('user_id', '=', id).execute();
      assert.deepEqual(left, [], `no ${table} rows left`);
    }
    assert.equal((await service.call('GET', '/api/home', { token: player.token })).status, 401);
    assert.equal((await yggdrasil('authserver/validate', { accessToken: player.gameToken })).status, 403);
    const login = await service.call('POST', '/api/auth/login', { body: { username: player.mail, password: player.password } });
    assert.equal(login.status, 401);
    assert.equal((await service.call('GET', `/api/skin/launcher/${player.username}`)).body.SKIN, undefined);

    const ownerToken = await service.ownerToken();
    const audit = await service.call('GET', `/api/admin/audit?action=user.delete&for=${id}`, { token: ownerToken });
    assert.equal(audit.status, 200);
    assert.deepEqual(
      audit.body.data.map((entry: { iss: string; for: number; details: unknown }) => [entry.iss, entry.for, entry.details]),
      [[player.username, id, { skins: 2 }]],
    );
  });

  it('keeps the last owner', async () => {
    const ownerToken = await service.ownerToken();
    const refused = await service.call('DELETE', '/api/home', { token: ownerToken, body: { password: OWNER.password } });
    assert.equal(refused.status, 403);
    assert.match(refused.body.msg, /last owner/);
    assert.ok(await userRow(OWNER.mail));

    const second = await service.registerPlayer();
    const promoted = await service.call('PATCH', `/api/admin/user/${second.username}`, { token: ownerToken, body: { perms: 3 } });
    assert.equal(promoted.status, 200);
    const deleted = await service.call('DELETE', '/api/home', { token: second.token, body: { password: second.password } });
    assert.equal(deleted.status, 200, 'an owner who is not the last one may go');
  });
});
