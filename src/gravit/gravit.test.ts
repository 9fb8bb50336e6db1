// The GravitLauncher API as a LaunchServer's `myhttp` auth core uses it, driven through a stand-in for its HTTP
// requester (test/support/launchserver.ts: the LaunchServer's headers, every answer parsed as JSON, errors exactly
// {error, code}), on SQLite and PostgreSQL: logins, launcher sessions and their tokens, players by name and UUID,
// server joins and checks, hardware ids, the password check, the shared secret, bad input, and the admin routes.
import assert from 'node:assert/strict';
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import pg from 'pg';
import { ManualClock } from '../../test/support/clock.ts';
import { describeEachDatabase } from '../../test/support/databases.ts';
import { skinFile } from '../../test/support/fixtures.ts';
import { LaunchServerRequester } from '../../test/support/launchserver.ts';
import { codeIn, mailTo } from '../../test/support/smtp.ts';
import { OWNER, randomAddress, startService, uniqueName, type TestService } from '../../test/support/service.ts';
import { hashPassword } from '../accounts/passwords.ts';
import { insertProfile } from '../accounts/profile-rows.ts';
import { REFRESH_LIFETIME_MS } from '../sessions/launcher.ts';
import { HARDWARE_INFO_EXAMPLE } from './shapes.ts';

const TOKEN = 'launchserver-shared-secret-0123';
const TTL_MS = 3600_000;

/** A launcher's public key as the LaunchServer sends it: Java's URL-safe base64, with padding. */
const launcherKey = () =>
  generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ type: 'spki', format: 'der' }).toString('base64url') + '=';
/** A hardware report as the LaunchServer forwards it (Gson leaves out fields that are null). */
const report = (overrides: Record<string, unknown> = {}) => ({
  ...HARDWARE_INFO_EXAMPLE,
  hwDiskId: `DISK-${uniqueName()}`,
  baseboardSerialNumber: `BOARD-${uniqueName()}`,
  displayId: Buffer.from(`EDID ${uniqueName()} of a display`).toString('base64url'),
  ...overrides,
});

describeEachDatabase('GravitLauncher API', (kind) => {
  const clock = new ManualClock();
  let service: TestService;
  let launchServer: LaunchServerRequester;

  before(async () => {
    service = await startService(kind, { clock, settings: { owner: OWNER, gravitToken: TOKEN } });
    launchServer = new LaunchServerRequester(service, TOKEN);
  });
  after(async () => service?.close());

  const player = async () => {
    const registered = await service.registerPlayer();
    const row = await service.db.selectFrom('users').selectAll().where('mail', '=', registered.mail).executeTakeFirstOrThrow();
    return { ...registered, id: row.id, uuid: row.uuid! };
  };
  const authorize = async (login: string, password: string) => {
    const answer = await launchServer.post('authorize', { login, password });
    assert.ok(answer.ok, `authorize: ${JSON.stringify(answer)}`);
    return answer.result;
  };
  const refused = (
    answer: { ok: boolean; status: number; error?: unknown },
    status: number,
    error: { error: string | RegExp; code: number },
  ) => {
    assert.equal(answer.ok, false, `expected ${status}, got ${answer.status}`);
    const body = answer.error as { error: string; code: number };
    assert.equal(answer.status, status);
    assert.equal(body.code, error.code);
    if (typeof error.error === 'string') assert.equal(body.error, error.error);
    else assert.match(body.error, error.error);
  };
  /** How many rows the tables a call could write to hold. */
  const counts = async () => {
    const tables = ['launcher_sessions', 'hwids', 'hwidlog', 'hardware_users', 'game_joins', 'audit_log'] as const;
    const rows = await Promise.all(
      tables.map(async (table) => (await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}`.execute(service.db)).rows[0]!.n),
    );
    return Object.fromEntries(tables.map((table, index) => [table, Number(rows[index])]));
  };
  const ownerPatch = async (userId: number, body: object) => {
    const patched = await service.call('PATCH', `/api/admin/user/${userId}`, { token: await service.ownerToken(), body });
    assert.equal(patched.status, 200, patched.body?.msg);
  };

  it('logs in by player name or mail address in any letter case, answering a session with the User', async () => {
    const steve = await player();
    await service.upload('/api/home/skins', steve.token, { slim: 'true' }, skinFile('slim'));
    const session = await authorize(steve.username.toUpperCase(), steve.password);
    assert.deepEqual(Object.keys(session).sort(), ['accessToken', 'expire', 'id', 'refreshToken', 'user']);
    assert.match(session.id, /^\d+$/);
    assert.equal(session.expire, TTL_MS / 1000);
    assert.notEqual(session.accessToken, session.refreshToken);
    const launcherDocument = (await service.call('GET', `/api/skin/launcher/${steve.uuid}`)).body;
    assert.deepEqual(session.user, {
      username: steve.username,
      uuid: steve.uuid,
      permissions: [],
      roles: ['player'],
      assets: launcherDocument,
      banned: false,
    });
    assert.equal(session.user.assets.SKIN.metadata.model, 'slim');
    assert.match(session.user.uuid, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);

    const byMail = await launchServer.post('authorize', { login: steve.mail.toUpperCase(), password: steve.password, totpCode: '123456' });
    assert.ok(byMail.ok, 'by mail, and a TOTP code is ignored for an account without two-factor login');
    assert.notEqual(byMail.result.id, session.id, 'each login is a session of its own');
    const stored = await service.db.selectFrom('launcher_sessions').select(['access_hash', 'refresh_hash']).execute();
    for (const row of stored) {
      assert.ok(![session.accessToken, session.refreshToken].includes(row.access_hash) && row.refresh_hash !== session.refreshToken);
    }
  });

  it('answers the same auth.wrongpassword for an unknown user and a wrong password, and blocks banned accounts', async () => {
    const steve = await player();
    const wrong = await launchServer.post('authorize', { login: steve.username, password: 'not the password' });
    refused(wrong, 401, { error: 'auth.wrongpassword', code: 401 });
    const unknown = await launchServer.post('authorize', { login: 'nobody_here', password: 'not the password' });
    assert.deepEqual([unknown.status, unknown.ok || unknown.error], [wrong.status, wrong.ok || wrong.error]);

    await service.db.updateTable('users').set({ perms: -1 }).where('id', '=', steve.id).execute();
    refused(await launchServer.post('authorize', { login: steve.username, password: steve.password }), 403, {
      error: 'auth.userblocked',
      code: 403,
    });

    const mail = `${uniqueName()}@example.org`;
    await service.call('POST', '/api/auth/register', { body: { mail, password: 'a good password' }, ip: randomAddress() });
    refused(await launchServer.post('authorize', { login: mail, password: 'a good password' }), 403, {
      error: /Confirm your mail/,
      code: 403,
    });
    const confirmed = await service.call('POST', '/api/auth/confirm', {
      body: { code: codeIn(await service.mailbox.waitFor(mailTo(mail))) },
    });
    assert.equal(confirmed.status, 200);
    refused(await launchServer.post('authorize', { login: mail, password: 'a good password' }), 403, {
      error: /Finish your registration/,
      code: 403,
    });
  });

  it('counts failed logins on the account’s counters of every way in, and not on the LaunchServer’s address', async () => {
    // More failures through the one LaunchServer than the per-address limit (30) allows, on accounts nobody has.
    for (let attempt = 0; attempt < 31; attempt += 1) {
      refused(await launchServer.post('authorize', { login: `nobody_${attempt}`, password: 'guess' }), 401, {
        error: 'auth.wrongpassword',
        code: 401,
      });
    }
    const alex = await player();
    assert.equal((await authorize(alex.username, alex.password)).user.username, alex.username, 'other players still log in');

    const victim = await player();
    // Its logins carry no player address: they count on the account's limit (100) alone.
    for (let attempt = 0; attempt < 100; attempt += 1)
      await launchServer.post('authorize', { login: victim.username, password: `wrong ${attempt}` });
    const limited = await launchServer.post('authorize', { login: victim.mail, password: victim.password });
    refused(limited, 429, { error: 'Too many failed logins for this account; try again in 15 minutes', code: 429 });
    assert.ok(Number(limited.headers['retry-after']) > 0);
    const web = await service.call('POST', '/api/auth/login', {
      body: { username: victim.mail, password: victim.password },
      ip: randomAddress(),
    });
    assert.equal(web.status, 429, 'the same counter as the web login');
    clock.advance(15 * 60_000);
    assert.ok((await launchServer.post('authorize', { login: victim.username, password: victim.password })).ok);
  });

  it('answers getbytoken, with code 1001 once the access token expired and 1000 for any other, and rotates both tokens', async () => {
    const steve = await player();
    const session = await authorize(steve.username, steve.password);
    const current = await launchServer.post('getbytoken', { accessToken: session.accessToken });
    assert.ok(current.ok);
    assert.deepEqual(Object.keys(current.result).sort(), ['accessToken', 'expire', 'id', 'user'], 'no refresh token: it is stored hashed');
    assert.equal(current.result.id, session.id);
    assert.equal(current.result.accessToken, session.accessToken);

    clock.advance(TTL_MS - 1000);
    const lastSecond = await launchServer.post('getbytoken', { accessToken: session.accessToken });
    assert.equal(lastSecond.ok && lastSecond.result.expire, 1);
    clock.advance(1000);
    refused(await launchServer.post('getbytoken', { accessToken: session.accessToken }), 401, { error: 'auth.expiretoken', code: 1001 });

    const refreshed = await launchServer.post('refreshtoken', { refreshToken: session.refreshToken });
    assert.ok(refreshed.ok);
    assert.equal(refreshed.result.id, session.id, 'the same session');
    assert.equal(refreshed.result.expire, TTL_MS / 1000);
    assert.notEqual(refreshed.result.accessToken, session.accessToken);
    assert.notEqual(refreshed.result.refreshToken, session.refreshToken);
    assert.deepEqual(refreshed.result.user, session.user);
    assert.ok((await launchServer.post('getbytoken', { accessToken: refreshed.result.accessToken })).ok);
    refused(await launchServer.post('getbytoken', { accessToken: session.accessToken }), 401, { error: 'auth.invalidtoken', code: 1000 });
    refused(await launchServer.post('refreshtoken', { refreshToken: session.refreshToken }), 401, {
      error: 'auth.invalidtoken',
      code: 1002,
    });
    refused(await launchServer.post('getbytoken', { accessToken: 'not-a-token' }), 401, { error: 'auth.invalidtoken', code: 1000 });
    refused(await launchServer.post('refreshtoken', { refreshToken: 'not-a-token' }), 401, { error: 'auth.invalidtoken', code: 1002 });

    clock.advance(REFRESH_LIFETIME_MS);
    refused(await launchServer.post('refreshtoken', { refreshToken: refreshed.result.refreshToken }), 401, {
      error: 'auth.invalidtoken',
      code: 1002,
    });
    refused(await launchServer.post('getbytoken', { accessToken: refreshed.result.accessToken }), 401, {
      error: 'auth.invalidtoken',
      code: 1000,
    });
  });

  it('refreshes a session once, also when asked several times at the same moment', async () => {
    const steve = await player();
    const session = await authorize(steve.username, steve.password);
    const answers = await Promise.all(
      Array.from({ length: 3 }, () => launchServer.post('refreshtoken', { refreshToken: session.refreshToken })),
    );
    const granted = answers.filter((answer) => answer.ok);
    assert.equal(granted.length, 1, `one new pair for one refresh token (statuses ${answers.map((answer) => answer.status)})`);
    for (const answer of answers.filter((candidate) => !candidate.ok)) refused(answer, 401, { error: 'auth.invalidtoken', code: 1002 });
    assert.ok((await launchServer.post('getbytoken', { accessToken: granted[0]!.result.accessToken })).ok);
  });

  it('revokes launcher sessions on a password change, a ban (lifting it brings none back) and a password reset', async () => {
    const steve = await player();
    const assertRevoked = async (session: { accessToken: string; refreshToken: string }, why: string) => {
      refused(await launchServer.post('getbytoken', { accessToken: session.accessToken }), 401, { error: 'auth.invalidtoken', code: 1000 });
      refused(await launchServer.post('refreshtoken', { refreshToken: session.refreshToken }), 401, {
        error: 'auth.invalidtoken',
        code: 1002,
      });
      const joined = await launchServer.post('joinserver', {
        accessToken: session.accessToken,
        serverId: 'revoked',
        username: steve.username,
      });
      assert.equal(joined.ok, false, why);
    };
    let session = await authorize(steve.username, steve.password);
    const changed = await service.call('PATCH', '/api/home', {
      token: steve.token,
      body: { password: 'a changed password', current_password: steve.password },
    });
    assert.equal(changed.status, 200);
    await assertRevoked(session, 'password changed');

    session = await authorize(steve.username, 'a changed password');
    await ownerPatch(steve.id, { perms: -1 });
    await assertRevoked(session, 'banned');
    await ownerPatch(steve.id, { perms: 0 });
    await assertRevoked(session, 'the ban is lifted; the session stays revoked');

    session = await authorize(steve.username, 'a changed password');
    const ip = randomAddress();
    assert.equal((await service.call('POST', '/api/auth/forgetpass', { body: { mail: steve.mail }, ip })).status, 200);
    const code = codeIn(await service.mailbox.waitFor((mail) => mailTo(steve.mail)(mail) && mail.subject === 'Reset your password'));
    assert.equal(
      (await service.call('POST', '/api/auth/forgetpass/update', { body: { code, password: 'a reset password' }, ip })).status,
      200,
    );
    await assertRevoked(session, 'password reset');
    assert.ok((await launchServer.post('authorize', { login: steve.mail, password: 'a reset password' })).ok);
  });

  it('finds players by name without regard to case and by UUID in any form, with their level as role', async () => {
    const steve = await player();
    const byName = await launchServer.get(`getbyusername?username=${encodeURIComponent(steve.username.toLowerCase())}`);
    assert.ok(byName.ok);
    assert.equal(byName.result.uuid, steve.uuid);
    const byUuid = await launchServer.get(`getbyuuid?uuid=${steve.uuid.replace(/-/g, '').toUpperCase()}`);
    assert.deepEqual(byUuid.ok && byUuid.result, byName.result);
    refused(await launchServer.get('getbyusername?username=nobody_here'), 404, { error: /nobody_here/, code: 404 });
    refused(await launchServer.get('getbyuuid?uuid=00000000-0000-4000-8000-000000000000'), 404, { error: /No player/, code: 404 });
    refused(await launchServer.get('getbyuuid?uuid=not-a-uuid'), 400, { error: /uuid/, code: 400 });
    refused(await launchServer.get('getbyusername'), 400, { error: /"username" is required/, code: 400 });

    const grant = await service.call('POST', `/api/admin/user/role/${steve.id}`, {
      token: await service.ownerToken(),
      body: { role_level: 1 },
    });
    assert.equal(grant.status, 200);
    const moderator = await launchServer.get(`getbyuuid?uuid=${steve.uuid}`);
    assert.deepEqual(moderator.ok && [moderator.result.roles, moderator.result.permissions], [['moderator'], []]);
    await service.db.updateTable('users').set({ perms: -1 }).where('id', '=', steve.id).execute();
    const banned = await launchServer.get(`getbyuuid?uuid=${steve.uuid}`);
    assert.deepEqual(banned.ok && [banned.result.roles, banned.result.banned], [['banned'], true]);
  });

  it('joins with only the username or only the UUID, and checkserver answers the player only for that serverId', async () => {
    const steve = await player();
    const session = await authorize(steve.username, steve.password);
    const joined = await launchServer.post('joinserver', {
      accessToken: session.accessToken,
      serverId: 'server-one',
      username: steve.username,
    });
    assert.deepEqual([joined.status, joined.ok && joined.result], [200, {}]);
    const checked = await launchServer.post('checkserver', { username: steve.username, serverId: 'server-one' });
    assert.ok(checked.ok);
    assert.equal(checked.result.uuid, steve.uuid);
    refused(await launchServer.post('checkserver', { username: steve.username, serverId: 'server-two' }), 403, {
      error: /has not joined this server/,
      code: 403,
    });

    // Older LaunchServers send serverID; newer game versions join by UUID.
    assert.ok((await launchServer.post('joinserver', { accessToken: session.accessToken, serverID: 'server-two', uuid: steve.uuid })).ok);
    assert.ok((await launchServer.post('checkserver', { username: steve.username.toUpperCase(), serverID: 'server-two' })).ok);
    refused(await launchServer.post('checkserver', { username: steve.username, serverId: 'server-one' }), 403, {
      error: /has not joined/,
      code: 403,
    });
    assert.ok(
      (
        await launchServer.post('joinserver', {
          accessToken: session.accessToken,
          serverId: 'both',
          username: steve.username,
          uuid: steve.uuid,
        })
      ).ok,
    );
    clock.advance(31_000);
    refused(await launchServer.post('checkserver', { username: steve.username, serverId: 'both' }), 403, {
      error: /has not joined/,
      code: 403,
    });

    clock.advance(TTL_MS);
    refused(await launchServer.post('getbytoken', { accessToken: session.accessToken }), 401, { error: 'auth.expiretoken', code: 1001 });
    assert.ok(
      (await launchServer.post('joinserver', { accessToken: session.accessToken, serverId: 'long-game', uuid: steve.uuid })).ok,
      'a token past its life still joins: the game keeps it for its whole run',
    );
    assert.ok((await launchServer.post('checkserver', { username: steve.username, serverId: 'long-game' })).ok);
  });

  it('never lets one player join as another, nor a banned player play', async () => {
    const steve = await player();
    const mallory = await player();
    const malloryToken = (await authorize(mallory.username, mallory.password)).accessToken;
    const before = await counts();
    refused(await launchServer.post('joinserver', { accessToken: malloryToken, serverId: 'steal', username: steve.username }), 403, {
      error: /another player/,
      code: 403,
    });
    refused(await launchServer.post('joinserver', { accessToken: malloryToken, serverId: 'steal', uuid: steve.uuid }), 403, {
      error: /another player/,
      code: 403,
    });
    refused(
      await launchServer.post('joinserver', { accessToken: malloryToken, serverId: 'steal', username: mallory.username, uuid: steve.uuid }),
      403,
      { error: /another player/, code: 403 },
    );
    refused(await launchServer.post('checkserver', { username: steve.username, serverId: 'steal' }), 403, {
      error: /has not joined/,
      code: 403,
    });
    refused(await launchServer.post('joinserver', { accessToken: 'forged-token', serverId: 'steal', username: steve.username }), 401, {
      error: 'auth.invalidtoken',
      code: 1000,
    });
    refused(await launchServer.post('joinserver', { accessToken: malloryToken, serverId: 'no-player' }), 400, {
      error: /username.*uuid/,
      code: 400,
    });
    refused(await launchServer.post('joinserver', { accessToken: malloryToken, username: mallory.username }), 400, {
      error: /"serverId" is required/,
      code: 400,
    });
    assert.deepEqual(await counts(), before, 'no join was recorded');

    // A ban written straight into the table (no session revoked): the standing rule still refuses.
    assert.ok(
      (await launchServer.post('joinserver', { accessToken: malloryToken, serverId: 'before-ban', username: mallory.username })).ok,
    );
    await service.db.updateTable('users').set({ perms: -1 }).where('id', '=', mallory.id).execute();
    refused(await launchServer.post('checkserver', { username: mallory.username, serverId: 'before-ban' }), 403, {
      error: /has not joined/,
      code: 403,
    });
    refused(await launchServer.post('joinserver', { accessToken: malloryToken, serverId: 'after-ban', username: mallory.username }), 403, {
      error: 'auth.userblocked',
      code: 403,
    });
    refused(await launchServer.post('getbytoken', { accessToken: malloryToken }), 401, { error: 'auth.invalidtoken', code: 1000 });
  });

  /**
   * A player whose account holds a second game profile (contract section 16), written straight into the table: the
   * primary profile wears the classic skin (the first one uploaded), the second the slim one.
   */
  const playerWithSecondProfile = async () => {
    const steve = await player();
    await service.upload('/api/home/skins', steve.token, {}, skinFile('classic'));
    const slim = (await service.upload('/api/home/skins', steve.token, { slim: 'true' }, skinFile('slim'))).body.data;
    const skin = await service.db.selectFrom('skins').select('id').where('uuid', '=', slim.uuid).executeTakeFirstOrThrow();
    const alt = { name: uniqueName('Alt'), uuid: randomUUID() };
    const profileId = await insertProfile(service.db, { userId: steve.id, ...alt, now: clock.now() });
    await service.db.updateTable('profiles').set({ selected_skin_id: skin.id }).where('id', '=', profileId).execute();
    const primaryId = (await service.db.selectFrom('profiles').select('id').where('uuid', '=', steve.uuid).executeTakeFirstOrThrow()).id;
    return { ...steve, primaryId, alt: { ...alt, id: profileId, skinDigest: slim.digest as string } };
  };
  const launcherDocument = async (id: string) => (await service.call('GET', `/api/skin/launcher/${id}`)).body;

  it('logs a second profile in by its name in any letter case, and the primary one by mail or its name; each session keeps its profile', async () => {
    const steve = await playerWithSecondProfile();
    const session = await authorize(steve.alt.name.toUpperCase(), steve.password);
    assert.deepEqual(session.user, {
      username: steve.alt.name,
      uuid: steve.alt.uuid,
      permissions: [],
      roles: ['player'],
      assets: await launcherDocument(steve.alt.uuid),
      banned: false,
    });
    assert.equal(session.user.assets.SKIN.digest, steve.alt.skinDigest, 'the second profile’s own skin');
    assert.equal(session.user.assets.SKIN.metadata.model, 'slim');
    const row = await service.db
      .selectFrom('launcher_sessions')
      .select('profile_id')
      .where('id', '=', Number(session.id))
      .executeTakeFirst();
    assert.equal(row?.profile_id, steve.alt.id, 'the session records its profile');

    const byToken = await launchServer.post('getbytoken', { accessToken: session.accessToken });
    assert.deepEqual(byToken.ok && byToken.result.user, session.user);
    const refreshed = await launchServer.post('refreshtoken', { refreshToken: session.refreshToken });
    assert.deepEqual(refreshed.ok && refreshed.result.user, session.user);

    const primaryUser = {
      username: steve.username,
      uuid: steve.uuid,
      permissions: [],
      roles: ['player'],
      assets: await launcherDocument(steve.uuid),
      banned: false,
    };
    assert.notEqual(primaryUser.assets.SKIN.digest, steve.alt.skinDigest);
    for (const login of [steve.mail, steve.username.toLowerCase()]) {
      const primary = await authorize(login, steve.password);
      assert.deepEqual(primary.user, primaryUser, login);
      const again = await launchServer.post('getbytoken', { accessToken: primary.accessToken });
      assert.deepEqual(again.ok && again.result.user, primaryUser);
    }
    refused(await launchServer.post('authorize', { login: steve.alt.name, password: 'not the password' }), 401, {
      error: 'auth.wrongpassword',
      code: 401,
    });
  });

  it('finds a second profile by its name in any letter case and by its UUID, with its own skin and the account’s level', async () => {
    const steve = await playerWithSecondProfile();
    await ownerPatch(steve.id, { perms: 1 });
    const expected = {
      username: steve.alt.name,
      uuid: steve.alt.uuid,
      permissions: [],
      roles: ['moderator'],
      assets: await launcherDocument(steve.alt.uuid),
      banned: false,
    };
    assert.equal(expected.assets.SKIN.digest, steve.alt.skinDigest);
    for (const name of [steve.alt.name, steve.alt.name.toLowerCase(), steve.alt.name.toUpperCase()]) {
      const found = await launchServer.get(`getbyusername?username=${encodeURIComponent(name)}`);
      assert.deepEqual(found.ok && found.result, expected, name);
    }
    for (const uuid of [steve.alt.uuid, steve.alt.uuid.replace(/-/g, '').toUpperCase()]) {
      const found = await launchServer.get(`getbyuuid?uuid=${uuid}`);
      assert.deepEqual(found.ok && found.result, expected, uuid);
    }
    const primary = await launchServer.get(`getbyusername?username=${steve.username}`);
    assert.equal(primary.ok && primary.result.uuid, steve.uuid);
  });

  it('joins and checks each profile on its own: one profile’s join never lets another of the account through', async () => {
    const steve = await playerWithSecondProfile();
    const altSession = await authorize(steve.alt.name, steve.password);
    const primarySession = await authorize(steve.mail, steve.password);

    const altJoin = await launchServer.post('joinserver', {
      accessToken: altSession.accessToken,
      serverId: 'alt-server',
      username: steve.alt.name,
    });
    assert.ok(altJoin.ok, JSON.stringify(altJoin));
    assert.ok(
      (await launchServer.post('joinserver', { accessToken: altSession.accessToken, serverId: 'alt-server', uuid: steve.alt.uuid })).ok,
    );
    const checked = await launchServer.post('checkserver', { username: steve.alt.name.toLowerCase(), serverId: 'alt-server' });
    assert.ok(checked.ok, JSON.stringify(checked));
    assert.deepEqual([checked.result.username, checked.result.uuid], [steve.alt.name, steve.alt.uuid]);
    assert.equal(checked.result.assets.SKIN.digest, steve.alt.skinDigest);
    refused(await launchServer.post('checkserver', { username: steve.username, serverId: 'alt-server' }), 403, {
      error: /has not joined/,
      code: 403,
    });
    const joins = await service.db
      .selectFrom('game_joins')
      .select(['profile_id', 'server_id'])
      .where('server_id', '=', 'alt-server')
      .execute();
    assert.deepEqual(joins, [{ profile_id: steve.alt.id, server_id: 'alt-server' }], 'recorded for the profile');

    // A session joins only as its own profile, even another of the same account.
    for (const player of [{ username: steve.username }, { uuid: steve.uuid }]) {
      refused(await launchServer.post('joinserver', { accessToken: altSession.accessToken, serverId: 'as-primary', ...player }), 403, {
        error: /another player/,
        code: 403,
      });
    }
    refused(
      await launchServer.post('joinserver', { accessToken: primarySession.accessToken, serverId: 'as-alt', username: steve.alt.name }),
      403,
      {
        error: /another player/,
        code: 403,
      },
    );

    assert.ok(
      (await launchServer.post('joinserver', { accessToken: primarySession.accessToken, serverId: 'primary-server', uuid: steve.uuid })).ok,
    );
    assert.ok((await launchServer.post('checkserver', { username: steve.username.toUpperCase(), serverId: 'primary-server' })).ok);
    refused(await launchServer.post('checkserver', { username: steve.alt.name, serverId: 'primary-server' }), 403, {
      error: /has not joined/,
      code: 403,
    });
    const stillJoined = await launchServer.post('checkserver', { username: steve.alt.name, serverId: 'alt-server' });
    assert.equal(stillJoined.ok && stillJoined.result.uuid, steve.alt.uuid, 'the primary profile’s join left the second one’s alone');
    const primaryJoin = await service.db.selectFrom('game_joins').select('profile_id').where('server_id', '=', 'primary-server').execute();
    assert.deepEqual(primaryJoin, [{ profile_id: steve.primaryId }]);
  });

  it('ends the launcher sessions of a deleted profile, and keeps those of the account’s other profiles', async () => {
    const steve = await playerWithSecondProfile();
    const altSession = await authorize(steve.alt.name, steve.password);
    const primarySession = await authorize(steve.username, steve.password);
    await service.db.deleteFrom('profiles').where('id', '=', steve.alt.id).execute();

    refused(await launchServer.post('getbytoken', { accessToken: altSession.accessToken }), 401, {
      error: 'auth.invalidtoken',
      code: 1000,
    });
    refused(await launchServer.post('refreshtoken', { refreshToken: altSession.refreshToken }), 401, {
      error: 'auth.invalidtoken',
      code: 1002,
    });
    refused(
      await launchServer.post('joinserver', { accessToken: altSession.accessToken, serverId: 'gone', username: steve.alt.name }),
      401,
      {
        error: 'auth.invalidtoken',
        code: 1000,
      },
    );
    refused(await launchServer.get(`getbyusername?username=${steve.alt.name}`), 404, { error: /No player/, code: 404 });
    refused(await launchServer.get(`getbyuuid?uuid=${steve.alt.uuid}`), 404, { error: /No player/, code: 404 });
    refused(await launchServer.post('checkserver', { username: steve.alt.name, serverId: 'gone' }), 403, {
      error: /has not joined/,
      code: 403,
    });
    refused(await launchServer.post('authorize', { login: steve.alt.name, password: steve.password }), 401, {
      error: 'auth.wrongpassword',
      code: 401,
    });

    const primary = await launchServer.post('getbytoken', { accessToken: primarySession.accessToken });
    assert.equal(primary.ok && primary.result.user.uuid, steve.uuid);
  });

  it('checks passwords for a LaunchServer reading the users table: only stored hashes, counted on the account, bans refused', async () => {
    const steve = await player();
    const storedHash = async (userId: number) =>
      (await service.db.selectFrom('users').select('password').where('id', '=', userId).executeTakeFirstOrThrow()).password;
    const verify = (encryptedPassword: string, password: string) => launchServer.post('verifypassword', { encryptedPassword, password });
    const verified = async (encryptedPassword: string, password: string) => {
      const answer = await verify(encryptedPassword, password);
      assert.ok(answer.ok, JSON.stringify(answer));
      assert.deepEqual(Object.keys(answer.result), ['success']);
      return answer.result.success;
    };
    const hash = await storedHash(steve.id);
    assert.equal(await verified(hash, steve.password), true);
    assert.equal(await verified(hash, 'not the password'), false);
    assert.equal(await verified(await hashPassword(steve.password), steve.password), false, 'a hash no account stores is not checked');

    for (let attempt = 0; attempt < 99; attempt += 1) await verify(hash, `wrong ${attempt}`); // 100 with the one above
    const limited = await verify(hash, steve.password);
    refused(limited, 429, { error: 'Too many failed logins for this account; try again in 15 minutes', code: 429 });
    refused(await launchServer.post('authorize', { login: steve.username, password: steve.password }), 429, {
      error: /Too many/,
      code: 429,
    });
    clock.advance(15 * 60_000);

    await service.db.updateTable('users').set({ perms: -1 }).where('id', '=', steve.id).execute();
    assert.equal(await verified(hash, steve.password), false, 'banned');
    refused(
      await launchServer.post('verifypassword', { encryptedPassword: hash, password: steve.password }, { bearer: 'wrong-bearer' }),
      401,
      {
        error: /GRAVIT_TOKEN/,
        code: 401,
      },
    );
  });

  it('keeps hardware ids: create, find by key, data and id, connect players, add keys, ban and unban, all audited', async () => {
    const steve = await player();
    const alex = await player();
    const key = launcherKey();
    const info = report();
    const none = await launchServer.post('hardware/getbykey', { publicKey: key });
    assert.deepEqual([none.status, none.ok && none.result], [204, null], 'no hardware: 204');
    assert.deepEqual((await launchServer.post('hardware/getbydata', { info })).status, 204);

    const created = await launchServer.post('hardware/create', { info, publicKey: key });
    assert.ok(created.ok);
    const hardware = created.result;
    assert.deepEqual(Object.keys(hardware).sort(), ['banned', 'hardwareInfo', 'id', 'publicKey']);
    assert.match(hardware.id, /^\d+$/);
    assert.deepEqual(Buffer.from(hardware.publicKey, 'base64url'), Buffer.from(key, 'base64url'), 'the same key bytes, URL-safe base64');
    assert.deepEqual(hardware.hardwareInfo, info);
    assert.equal(hardware.banned, false);
    for (const [path, body] of [
      ['hardware/getbykey', { publicKey: key }],
      ['hardware/getbykey', { publicKey: key.replace(/=+$/, '') }],
      ['hardware/getbyid', { id: hardware.id }],
      ['hardware/getbydata', { info }],
      // The same machine reporting more memory and another graphics card: disk, board and display still agree.
      ['hardware/getbydata', { info: { ...info, totalMemory: 34_359_738_368, graphicCard: 'another card' } }],
      // A disk id one character off, with the same board: GravitLauncher's "very small change".
      ['hardware/getbydata', { info: { ...info, hwDiskId: `${info.hwDiskId}X`, displayId: undefined } }],
    ] as const) {
      const found = await launchServer.post(path, body);
      assert.deepEqual(found.ok && found.result, hardware, `${path} ${JSON.stringify(body).slice(0, 80)}`);
    }
    for (const other of [
      report({ graphicCard: info.graphicCard }),
      { ...report(), hwDiskId: info.hwDiskId.toLowerCase().replace('disk', 'dusk').replace(/.{6}$/, 'zzzzzz') },
    ]) {
      assert.equal((await launchServer.post('hardware/getbydata', { info: other })).status, 204, 'another machine');
    }
    assert.equal((await launchServer.post('hardware/getbyid', { id: '999999999' })).status, 204);
    refused(await launchServer.post('hardware/create', { info: report(), publicKey: key }), 409, { error: /public key/, code: 409 });

    const sessionOf = async (account: { username: string; password: string }) => authorize(account.username, account.password);
    const success = { message: 'success' };
    for (const account of [steve, alex, steve]) {
      const connected = await launchServer.post('hardware/connect', { hardware, userSession: await sessionOf(account) });
      assert.deepEqual(connected.ok && connected.result, success);
    }
    const users = await launchServer.post('hardware/getusers', { hardware });
    assert.deepEqual(users.ok && users.result.map((user: { username: string }) => user.username), [steve.username, alex.username]);
    assert.deepEqual(users.ok && users.result[0], (await sessionOf(steve)).user);

    const newKey = launcherKey();
    assert.deepEqual((await launchServer.post('hardware/addpublickey', { hardware, publicKey: newKey })).ok, true);
    assert.equal((await launchServer.post('hardware/getbykey', { publicKey: key })).status, 204, 'the old key is gone');
    const byNewKey = await launchServer.post('hardware/getbykey', { publicKey: newKey });
    assert.equal(byNewKey.ok && byNewKey.result.id, hardware.id);
    const logged = await service.db
      .selectFrom('hwidlog')
      .select('newpublickey')
      .where('hwidid', '=', Number(hardware.id))
      .orderBy('id')
      .execute();
    assert.deepEqual(
      logged.map((row) => Buffer.from(row.newpublickey).toString('base64url')),
      [key, newKey].map((value) => Buffer.from(value, 'base64url').toString('base64url')),
      'hwidlog has each key, as the sql core writes it',
    );

    assert.deepEqual((await launchServer.post('hardware/ban', { hardware })).ok, true);
    const banned = await launchServer.post('hardware/getbyid', { id: hardware.id });
    assert.equal(banned.ok && banned.result.banned, true);
    assert.deepEqual((await launchServer.post('hardware/unban', { hardware: banned.ok && banned.result })).ok, true);
    const unbanned = await launchServer.post('hardware/getbyid', { id: hardware.id });
    assert.equal(unbanned.ok && unbanned.result.banned, false);

    const audit = await service.call('GET', '/api/admin/audit?iss=launchserver&limit=1000', { token: await service.ownerToken() });
    const mine = audit.body.data
      .filter((entry: { details: { hardware?: number } | null }) => entry.details?.hardware === Number(hardware.id))
      .map((entry: { action: string; for: number }) => [entry.action, entry.for])
      .reverse();
    assert.deepEqual(mine, [
      ['hardware.create', 0],
      ['hardware.connect', steve.id],
      ['hardware.connect', alex.id],
      ['hardware.add_public_key', 0],
      ['hardware.ban', 0],
      ['hardware.unban', 0],
    ]);

    refused(await launchServer.post('hardware/ban', { hardware: { id: '999999999' } }), 404, { error: /No hardware/, code: 404 });
    refused(
      await launchServer.post('hardware/connect', { hardware, userSession: { user: { uuid: '00000000-0000-4000-8000-000000000000' } } }),
      404,
      { error: /No player/, code: 404 },
    );
  });

  it('lists hardware for moderators with the players of both ways, and lets admins ban it, audited', async () => {
    const steve = await player();
    const viaSqlCore = await player();
    const moderator = await player();
    const admin = await player();
    await service.db.updateTable('users').set({ perms: 1 }).where('id', '=', moderator.id).execute();
    await service.db.updateTable('users').set({ perms: 2 }).where('id', '=', admin.id).execute();
    const created = await launchServer.post('hardware/create', { info: report(), publicKey: launcherKey() });
    assert.ok(created.ok);
    const hardware = created.result;
    await launchServer.post('hardware/connect', { hardware, userSession: await authorize(steve.username, steve.password) });
    // A LaunchServer's sql core links a player to hardware in users.hwid_id (its JDBC driver sends the long as text).
    await sql`update users set hwid_id = ${hardware.id} where id = ${viaSqlCore.id}`.execute(service.db);

    const listed = await service.call('GET', '/api/admin/hardware?limit=1', { token: moderator.token });
    assert.equal(listed.status, 200);
    assert.ok(Number(listed.headers['x-total-count']) >= 1);
    assert.deepEqual(listed.body.data, [
      {
        ...hardware,
        users: [steve, viaSqlCore].map((user) => ({ id: user.id, username: user.username, uuid: user.uuid })),
      },
    ]);
    const users = await launchServer.post('hardware/getusers', { hardware });
    assert.deepEqual(users.ok && users.result.map((user: { uuid: string }) => user.uuid), [steve.uuid, viaSqlCore.uuid]);
    const record = await service.call('GET', `/api/admin/users?search=${viaSqlCore.username}`, { token: await service.ownerToken() });
    assert.equal(record.body.data[0].hwidId, hardware.id, 'the user record shows hwid_id as text (to permanent owners)');

    const patch = (token: string, body: unknown, id = hardware.id) => service.call('PATCH', `/api/admin/hardware/${id}`, { token, body });
    assert.equal((await patch(moderator.token, { banned: true })).status, 403);
    // A ban reaches every player of the machine: a temporary admin bans nothing, an admin nobody at or above them.
    const temporaryAdmin = await player();
    const expired_at = Math.floor(clock.now() / 1000) + 3600;
    const grant = { role_level: 2, expired_at };
    await service.call('POST', `/api/admin/user/role/${temporaryAdmin.id}`, { token: await service.ownerToken(), body: grant });
    assert.equal((await patch(temporaryAdmin.token, { banned: true })).status, 403);
    await service.db.updateTable('users').set({ perms: 2 }).where('id', '=', viaSqlCore.id).execute();
    assert.equal((await patch(admin.token, { banned: true })).status, 403);
    await service.db.updateTable('users').set({ perms: 0 }).where('id', '=', viaSqlCore.id).execute();
    const bannedByAdmin = await patch(admin.token, { banned: true });
    assert.equal(bannedByAdmin.status, 200);
    assert.equal(bannedByAdmin.body.data.banned, true);
    assert.equal(bannedByAdmin.body.data.users.length, 2);
    const seen = await launchServer.post('hardware/getbyid', { id: hardware.id });
    assert.equal(seen.ok && seen.result.banned, true, 'the LaunchServer sees the ban');
    for (const [body, id] of [
      [{ banned: 'yes' }, hardware.id],
      [{ banned: false, note: 'x' }, hardware.id],
      [{}, hardware.id],
      [{ banned: false }, 'abc'],
    ]) {
      assert.equal((await patch(admin.token, body, id)).status, 400, JSON.stringify(body));
    }
    assert.equal((await patch(admin.token, { banned: false }, '999999999')).status, 404);
    const after = await launchServer.post('hardware/getbyid', { id: hardware.id });
    assert.equal(after.ok && after.result.banned, true, 'the refused patches changed nothing');
    const audit = await service.call('GET', `/api/admin/audit?action=hardware.ban&iss=${admin.username}`, { token: moderator.token });
    assert.deepEqual(
      audit.body.data.map((entry: { details: unknown }) => entry.details),
      [{ hardware: Number(hardware.id) }],
    );
  });

  it('lists only the hardware one player used, linked by this API or by the sql core, each once', async () => {
    const steve = await player();
    const viaSqlCore = await player();
    const nobody = await player();
    const token = await service.ownerToken();
    const create = async () => {
      const created = await launchServer.post('hardware/create', { info: report(), publicKey: launcherKey() });
      assert.ok(created.ok);
      return created.result;
    };
    const [first, second] = [await create(), await create()];
    await create(); // nobody's
    const steveSession = await authorize(steve.username, steve.password);
    for (const hardware of [first, second]) await launchServer.post('hardware/connect', { hardware, userSession: steveSession });
    // Steve is on the first through both links; the sql core links the other player to the second.
    await sql`update users set hwid_id = ${first.id} where id = ${steve.id}`.execute(service.db);
    await sql`update users set hwid_id = ${second.id} where id = ${viaSqlCore.id}`.execute(service.db);

    const listed = async (query: string) => {
      const reply = await service.call('GET', `/api/admin/hardware?${query}`, { token });
      assert.equal(reply.status, 200, reply.body?.msg);
      return { ids: reply.body.data.map((record: { id: string }) => record.id), total: Number(reply.headers['x-total-count']) };
    };
    assert.deepEqual(await listed(`user=${steve.id}`), { ids: [second.id, first.id], total: 2 }, 'newest first, each once');
    assert.deepEqual(await listed(`user=${steve.id}&limit=1&offset=1`), { ids: [first.id], total: 2 });
    assert.deepEqual(await listed(`user=${viaSqlCore.id}`), { ids: [second.id], total: 1 });
    assert.deepEqual(await listed(`user=${nobody.id}`), { ids: [], total: 0 });
    assert.deepEqual(await listed('user=999999999'), { ids: [], total: 0 }, 'no such user: nothing');
    const filtered = await service.call('GET', `/api/admin/hardware?user=${viaSqlCore.id}`, { token });
    assert.deepEqual(
      filtered.body.data[0].users.map((user: { id: number }) => user.id),
      [steve.id, viaSqlCore.id],
      'a record still names all its players',
    );
    for (const user of ['0', '-1', 'abc', '1.5', '2147483648']) {
      const refusedQuery = await service.call('GET', `/api/admin/hardware?user=${user}`, { token });
      assert.equal(refusedQuery.status, 400, user);
      assert.match(refusedQuery.body.msg, /user/, user);
    }
  });

  it('refuses a wrong or missing bearer on every call with 401 {error, code} and changes nothing', async () => {
    const steve = await player();
    const before = await counts();
    const calls: [string, unknown][] = [
      ['authorize', { login: steve.username, password: steve.password }],
      ['getbytoken', { accessToken: 'x' }],
      ['refreshtoken', { refreshToken: 'x' }],
      ['joinserver', { accessToken: 'x', serverId: 'x', username: steve.username }],
      ['checkserver', { username: steve.username, serverId: 'x' }],
      ['verifypassword', { encryptedPassword: 'x', password: 'x' }],
      ['hardware/getbykey', { publicKey: 'AAAA' }],
      ['hardware/getbydata', { info: report() }],
      ['hardware/getbyid', { id: '1' }],
      ['hardware/create', { info: report(), publicKey: launcherKey() }],
      ['hardware/connect', { hardware: { id: '1' }, userSession: { user: { uuid: steve.uuid } } }],
      ['hardware/addpublickey', { hardware: { id: '1' }, publicKey: 'AAAA' }],
      ['hardware/getusers', { hardware: { id: '1' } }],
      ['hardware/ban', { hardware: { id: '1' } }],
      ['hardware/unban', { hardware: { id: '1' } }],
    ];
    for (const bearer of ['wrong-secret-of-some-length', TOKEN.slice(0, -1), `${TOKEN}x`, '']) {
      for (const [path, body] of calls) {
        refused(await launchServer.post(path, body, { bearer }), 401, { error: /Authorization: Bearer <GRAVIT_TOKEN>/, code: 401 });
      }
      for (const path of [`getbyusername?username=${steve.username}`, `getbyuuid?uuid=${steve.uuid}`]) {
        refused(await launchServer.get(path, { bearer }), 401, { error: /GRAVIT_TOKEN/, code: 401 });
      }
    }
    const anonymous = await service.call('POST', '/api/gravit/authorize', { body: { login: steve.username, password: steve.password } });
    assert.deepEqual([anonymous.status, anonymous.body.code], [401, 401]);
    assert.deepEqual(await counts(), before, 'nothing was created');
  });

  it('answers bad input with a clear {error, code}, never a 500, and changes nothing', async () => {
    const steve = await player();
    const session = await authorize(steve.username, steve.password);
    const before = await counts();
    const hardware = { id: '1' };
    const cases: [string, unknown, RegExp][] = [
      ['authorize', { login: steve.username }, /"password" is required/],
      ['authorize', { login: { name: 'x' }, password: 'x' }, /"login" must be string/],
      ['authorize', [], /must be object/],
      ['getbytoken', {}, /"accessToken" is required/],
      ['joinserver', { accessToken: session.accessToken, serverId: 'x'.repeat(200), username: steve.username }, /serverId/],
      ['checkserver', { serverId: 'x' }, /"username" is required/],
      ['verifypassword', { encryptedPassword: 'x' }, /"password" is required/],
      ['hardware/getbykey', { publicKey: 'has+plus/and/slash' }, /publicKey/],
      ['hardware/getbykey', { publicKey: '' }, /publicKey/],
      ['hardware/getbyid', { id: 'abc' }, /"id"/],
      ['hardware/getbydata', { info: { totalMemory: 'lots' } }, /totalMemory/],
      ['hardware/create', { info: report() }, /"publicKey" is required/],
      ['hardware/create', { info: report({ displayId: 'not base64!' }), publicKey: launcherKey() }, /displayId/],
      // Contract section 15: at most 256 characters per string, so that matching stays cheap (M4).
      ['hardware/getbydata', { info: report({ hwDiskId: 'a'.repeat(8192) }) }, /hwDiskId/],
      ['hardware/create', { info: report({ baseboardSerialNumber: 'b'.repeat(257) }), publicKey: launcherKey() }, /baseboardSerialNumber/],
      ['hardware/create', { info: report({ graphicCard: 'c'.repeat(257) }), publicKey: launcherKey() }, /graphicCard/],
      ['hardware/create', { info: report({ displayId: 'A'.repeat(260) }), publicKey: launcherKey() }, /displayId/],
      ['hardware/connect', { hardware }, /"userSession" is required/],
      ['hardware/connect', { hardware: { id: '-1' }, userSession: session }, /hardware\.id/],
      ['hardware/addpublickey', { hardware }, /"publicKey" is required/],
      ['hardware/ban', {}, /"hardware" is required/],
    ];
    for (const [path, body, message] of cases) {
      refused(await launchServer.post(path, body), 400, { error: message, code: 400 });
    }
    refused(await launchServer.postRaw('authorize', '{"login": '), 400, { error: 'Request body is not valid JSON', code: 400 });
    refused(await launchServer.post('no/such/call', {}), 404, { error: 'No route POST /api/gravit/no/such/call', code: 404 });
    refused(await launchServer.get('authorize'), 405, { error: /use POST/, code: 405 });
    const text = await service.call('POST', '/api/gravit/authorize', {
      body: 'login=x',
      headers: { 'content-type': 'text/plain', authorization: `Bearer ${TOKEN}` },
    });
    assert.deepEqual([text.status, text.body], [415, { error: 'Unsupported content type: send application/json', code: 415 }]);
    assert.deepEqual(await counts(), before, 'nothing changed');
  });

  it('keeps hwids, hwidlog and users.hwid_id as GravitLauncher documents them, shared with a LaunchServer’s sql core', async () => {
    const columnNames = async (table: string) =>
      kind === 'postgres'
        ? (
            await sql<{
              column_name: string;
            }>`select column_name from information_schema.columns where table_name = ${table} order by ordinal_position`.execute(service.db)
          ).rows.map((row) => row.column_name)
        : (await sql<{ name: string }>`select name from pragma_table_info(${table}) order by cid`.execute(service.db)).rows.map(
            (row) => row.name,
          );
    assert.deepEqual(await columnNames('hwids'), [
      'id',
      'publickey',
      'hwdiskid',
      'baseboardserialnumber',
      'graphiccard',
      'displayid',
      'bitness',
      'totalmemory',
      'logicalprocessors',
      'physicalprocessors',
      'processormaxfreq',
      'battery',
      'banned',
    ]);
    assert.deepEqual(await columnNames('hwidlog'), ['id', 'hwidid', 'newpublickey']);
    if (kind !== 'postgres') return;
    const types = await sql<{ table_name: string; data_type: string }>`select table_name, data_type from information_schema.columns
      where table_name in ('hwids', 'hwidlog') or (table_name = 'users' and column_name = 'hwid_id') order by table_name, ordinal_position`.execute(
      service.db,
    );
    const typesOf = (table: string) => types.rows.filter((row) => row.table_name === table).map((row) => row.data_type);
    const [bigint, bytea, text, int, bool] = ['bigint', 'bytea', 'character varying', 'integer', 'boolean'];
    assert.deepEqual(typesOf('hwids'), [bigint, bytea, text, text, text, bytea, int, bigint, int, int, bigint, bool, bool]);
    assert.deepEqual(typesOf('hwidlog'), [bigint, bigint, bytea]);
    assert.deepEqual(typesOf('users'), [bigint]);

    // The sql core's own statements (unquoted camel-case names, banned as '0', typed parameters as its JDBC driver
    // sends them) make a record this API reads back.
    const client = new pg.Client({ connectionString: (service.settings.database as { url: string }).url });
    await client.connect();
    try {
      const inserted = await client.query<{ id: string }>(
        `INSERT INTO hwids (publicKey, hwDiskId, baseboardSerialNumber, displayId, bitness, totalMemory, logicalProcessors,
           physicalProcessors, processorMaxFreq, graphicCard, battery, banned)
         VALUES ($1::bytea, $2::varchar, $3::varchar, $4::bytea, $5::int4, $6::int8, $7::int4, $8::int4, $9::int8, $10::varchar, $11::bool, '0')
         RETURNING *`,
        [Buffer.from('a key of the sql core'), 'SQL-DISK', 'SQL-BOARD', Buffer.from('an edid'), 64, 1024, 4, 2, 100, 'card', true],
      );
      const id = Number(inserted.rows[0]!.id);
      await client.query('INSERT INTO hwidLog (hwidId, newPublicKey) VALUES ($1::int8, $2::bytea)', [
        id,
        Buffer.from('a key of the sql core'),
      ]);
      const read = await launchServer.post('hardware/getbyid', { id: String(id) });
      assert.deepEqual(read.ok && [read.result.banned, read.result.hardwareInfo.battery, read.result.hardwareInfo.hwDiskId], [
        false,
        true,
        'SQL-DISK',
      ]);
    } finally {
      await client.end();
    }
  });
});

describe('GravitLauncher API without GRAVIT_TOKEN', () => {
  let service: TestService;
  before(async () => {
    service = await startService('sqlite');
  });
  after(async () => service?.close());

  it('answers 404 in its own error shape on every path, and keeps the admin hardware routes', async () => {
    const launchServer = new LaunchServerRequester(service, TOKEN);
    for (const path of ['authorize', 'getbytoken', 'hardware/create', 'verifypassword']) {
      refused404(await launchServer.post(path, {}), path);
    }
    refused404(await launchServer.get('getbyusername?username=Steve'), 'getbyusername');
    const admin = await service.call('GET', '/api/admin/hardware');
    assert.equal(admin.status, 401, 'the admin route exists (it wants a token)');
  });
});

function refused404(answer: { ok: boolean; status: number; error?: { error: string; code: number } }, path: string) {
  assert.equal(answer.status, 404, path);
  assert.equal(answer.error?.code, 404, path);
  assert.match(answer.error?.error ?? '', /^No route /, path);
}
