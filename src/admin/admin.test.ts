import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { ManualClock } from '../../test/support/clock.ts';
import { describeEachDatabase } from '../../test/support/databases.ts';
import { skinFile } from '../../test/support/fixtures.ts';
import { OWNER, startService, type TestService } from '../../test/support/service.ts';

describeEachDatabase('user administration', (kind) => {
  const clock = new ManualClock();
  let service: TestService;
  let ownerToken: string;
  before(async () => {
    service = await startService(kind, { clock, settings: { owner: OWNER } });
    ownerToken = await service.ownerToken();
  });
  after(async () => service?.close());

  const idOf = async (username: string) =>
    (await service.db.selectFrom('users').select('id').where('username', '=', username).executeTakeFirstOrThrow()).id;
  /** A registered player whose perms are then set directly, as an owner would have. */
  const withPerms = async (perms: number) => {
    const player = await service.registerPlayer();
    await service.db.updateTable('users').set({ perms }).where('username', '=', player.username).execute();
    return { ...player, id: await idOf(player.username) };
  };
  const patch = (token: string, identifier: string | number, body: object) =>
    service.call('PATCH', `/api/admin/user/${identifier}`, { token, body });

  it('lists users as interface.md 2.3 records, paginated and searchable', async () => {
    const player = await service.registerPlayer();
    const moderator = await withPerms(1);
    const all = await service.call('GET', '/api/admin/users?limit=1000', { token: moderator.token });
    assert.equal(all.status, 200);
    assert.equal(Number(all.headers['x-total-count']), all.body.data.length);
    const record = all.body.data.find((user: { username: string }) => user.username === player.username);
    assert.deepEqual(Object.keys(record).sort(), [
      'accessToken',
      'discord',
      'dsid',
      'hwidId',
      'id',
      'level',
      'mail',
      'mail_verify',
      'password',
      'perms',
      'role_grant',
      'serverID',
      'username',
      'uuid',
    ]);
    assert.equal(record.password, '', 'the hash only for permanent owners');
    assert.equal(record.accessToken, null);
    assert.deepEqual(
      [record.level, record.role_grant, record.discord],
      [0, null, null],
      'beyond interface.md: the effective level, the grant and the linked Discord account',
    );

    const page = await service.call('GET', '/api/admin/users?limit=2&offset=1', { token: moderator.token });
    assert.deepEqual(
      page.body.data.map((user: { id: number }) => user.id),
      all.body.data.slice(1, 3).map((user: { id: number }) => user.id),
    );
    const byName = await service.call('GET', `/api/admin/users?search=${player.username.toUpperCase().slice(2)}`, {
      token: moderator.token,
    });
    assert.deepEqual(
      byName.body.data.map((user: { username: string }) => user.username),
      [player.username],
    );
    const byMail = await service.call('GET', `/api/admin/users?search=${encodeURIComponent(player.mail)}`, { token: moderator.token });
    assert.equal(byMail.body.data.length, 1);
    const wildcard = await service.call('GET', '/api/admin/users?search=%25', { token: moderator.token });
    assert.equal(wildcard.body.data.length, 0, '% is searched for, not a wildcard');
    assert.equal((await service.call('GET', '/api/admin/users', { token: player.token })).status, 403);
  });

  it('shows a user by id, UUID or username', async () => {
    const player = await service.registerPlayer();
    const moderator = await withPerms(1);
    const byName = await service.call('GET', `/api/admin/user/${player.username}`, { token: moderator.token });
    assert.equal(byName.status, 200);
    assert.equal(byName.body.data.Username, player.username);
    const byUuid = await service.call('GET', `/api/admin/user/${byName.body.data.Uuid.toUpperCase()}`, { token: moderator.token });
    assert.equal(byUuid.body.data.Username, player.username);
    const byId = await service.call('GET', `/api/admin/user/${await idOf(player.username)}`, { token: moderator.token });
    assert.equal(byId.body.data.Username, player.username);
    assert.equal((await service.call('GET', '/api/admin/user/nobody_here', { token: moderator.token })).status, 404);
    // Beyond PostgreSQL's integer: nobody, not a database error.
    for (const url of ['/api/admin/user/99999999999', '/api/admin/users/skin/99999999999']) {
      assert.equal((await service.call('GET', url, { token: moderator.token })).status, 404, url);
    }
    assert.equal((await service.call('GET', '/api/admin/audit?for=99999999999', { token: moderator.token })).status, 400);
  });

  it('lets an admin edit players but not users at or above their level, nor perms', async () => {
    const player = await service.registerPlayer();
    const admin = await withPerms(2);
    const otherAdmin = await withPerms(2);
    const renamed = await patch(admin.token, player.username, { username: `${player.username}x`.slice(0, 16), mail_verification: false });
    assert.equal(renamed.status, 200);
    assert.equal(renamed.body.data.Mail_verification, 0);
    assert.equal((await patch(admin.token, otherAdmin.id, { username: 'taken_over' })).status, 403);
    assert.equal((await patch(admin.token, OWNER.username, { username: 'taken_over' })).status, 403);
    assert.equal((await patch(admin.token, admin.id, { mail_verify: true })).status, 403, 'not even oneself');
    const perms = await patch(admin.token, renamed.body.data.Username, { perms: 1 });
    assert.equal(perms.status, 403);
    assert.match(perms.body.msg, /owner/);
    const moderator = await withPerms(1);
    assert.equal((await patch(moderator.token, player.username, { mail_verify: true })).status, 403, 'moderators only read');
  });

  it("refuses to rename an account to the audit's own actor names, but leaves an account that has one its name", async () => {
    const player = await withPerms(0);
    for (const username of ['System', 'CLI']) {
      const refused = await patch(ownerToken, player.id, { username });
      assert.equal(refused.status, 400, username);
      assert.match(refused.body.msg, /reserved/, username);
    }
    const older = await withPerms(0);
    await service.db.updateTable('users').set({ username: 'System', username_key: 'system' }).where('id', '=', older.id).execute();
    const kept = await patch(ownerToken, older.id, { username: 'System', mail_verification: false });
    assert.equal(kept.status, 200, 'an account named so before the reservation keeps its name through an edit');
    assert.equal((await patch(ownerToken, older.id, { username: 'sYSTEM' })).status, 200, 'and may change its letter case');
  });

  it('refuses bad patches with 400 or 409 and changes nothing', async () => {
    const player = await service.registerPlayer();
    const other = await service.registerPlayer();
    const before = await service.db.selectFrom('users').selectAll().where('username', '=', player.username).executeTakeFirstOrThrow();
    const cases: [object, number][] = [
      [{ usrname: 'typo' }, 400],
      [{ username: 'bad name!' }, 400],
      [{ mail: 'nope' }, 400],
      [{ password: 'short' }, 400],
      [{ perms: 7 }, 400],
      [{ dsid: true }, 400],
      [{ selected_skin: '00000000-0000-4000-8000-000000000000' }, 400],
      [{ username: other.username.toUpperCase() }, 409],
      [{ mail: other.mail.toUpperCase() }, 409],
      [{ username: 'valid_name', mail: other.mail }, 409],
    ];
    for (const [body, status] of cases) {
      const reply = await patch(ownerToken, player.username, body);
      assert.equal(reply.status, status, JSON.stringify(body));
      assert.equal(reply.body.error, true);
    }
    const after = await service.db.selectFrom('users').selectAll().where('username', '=', player.username).executeTakeFirstOrThrow();
    assert.deepEqual(after, before);
  });

  it('refuses a common password, or the mail or a name of the user, as they are or as the edit sets them', async () => {
    const player = await service.registerPlayer();
    const newName = `N${player.username.slice(1)}x`.slice(0, 16);
    const cases: [object, string][] = [
      [{ password: 'password' }, 'accounts.passwordCommon'],
      [{ password: '12345678' }, 'accounts.passwordCommon'],
      [{ password: 'PassWord' }, 'accounts.passwordCommon'],
      [{ password: player.mail.toUpperCase() }, 'accounts.passwordIsOwnIdentifier'],
      [{ password: player.username.toLowerCase() }, 'accounts.passwordIsOwnIdentifier'],
      [{ username: newName, password: newName.toUpperCase() }, 'accounts.passwordIsOwnIdentifier'],
      [{ mail: 'fresh.mail@example.org', password: 'Fresh.Mail@example.org' }, 'accounts.passwordIsOwnIdentifier'],
    ];
    for (const [body, key] of cases) {
      const reply = await patch(ownerToken, player.username, body);
      assert.equal(reply.status, 400, JSON.stringify(body));
      assert.equal(reply.headers['x-error-key'], key, JSON.stringify(body));
      assert.deepEqual(JSON.parse(String(reply.headers['x-error-params'])), { field: 'password' });
    }
    assert.equal(
      (await service.call('POST', '/api/auth/login', { body: { username: player.username, password: player.password } })).status,
      200,
    );
  });

  it('revokes sessions at once on a password change or a ban', async () => {
    const player = await service.registerPlayer();
    assert.equal((await patch(ownerToken, player.username, { password: 'set by the owner' })).status, 200);
    assert.equal((await service.call('GET', '/api/home', { token: player.token })).status, 401);
    const login = await service.call('POST', '/api/auth/login', { body: { username: player.username, password: 'set by the owner' } });
    assert.equal(login.status, 200);
    assert.equal((await patch(ownerToken, player.username, { perms: -1 })).status, 200);
    assert.equal((await service.call('GET', '/api/home', { token: login.body.data.jwt })).status, 401);
    assert.equal(
      (await service.call('POST', '/api/auth/login', { body: { username: player.username, password: 'set by the owner' } })).status,
      403,
    );
    const bans = await service.db
      .selectFrom('audit_log')
      .select('iss')
      .where('action', '=', 'user.ban')
      .where('target_id', '=', await idOf(player.username))
      .execute();
    assert.deepEqual(bans, [{ iss: OWNER.username }]);
  });

  it('leaves a changed mail unverified unless mail_verify comes with it, and unlinks the social account', async () => {
    const player = await service.registerPlayer();
    await service.db
      .updateTable('users')
      .set({ dsid: '1234', discord_username: 'someone', discord_avatar: 'a.png' })
      .where('username', '=', player.username)
      .execute();
    const unverified = await patch(ownerToken, player.username, { mail: `new_${player.mail}` });
    assert.equal(unverified.body.data.Mail_verify, 0);
    const verified = await patch(ownerToken, player.username, { mail: `newer_${player.mail}`, mail_verify: true });
    assert.equal(verified.body.data.Mail_verify, 1);
    assert.equal(verified.body.data.Discord_integration, true);
    const unlinked = await patch(ownerToken, player.username, { dsid: false });
    assert.equal(unlinked.body.data.Discord_integration, false);
    assert.deepEqual(unlinked.body.data.Discord, { userid: '', username: '', avatar: '' });
  });

  it("lets an admin select one of the user's own skins", async () => {
    const player = await service.registerPlayer();
    await service.upload('/api/home/skins', player.token, {}, skinFile('classic'));
    const second = (await service.upload('/api/home/skins', player.token, {}, skinFile('slim'))).body.data;
    const selected = await patch(ownerToken, player.username, { selected_skin: second.uuid });
    assert.equal(selected.body.data.Selected_Skin, second.uuid);
  });

  it('keeps the last owner: cannot be demoted or banned (not even by themselves)', async () => {
    const ownerId = await idOf(OWNER.username);
    for (const perms of [2, -1]) {
      const reply = await patch(ownerToken, ownerId, { perms });
      assert.equal(reply.status, 403);
      assert.match(reply.body.msg, /own perms/);
    }
    const second = await withPerms(3);
    assert.equal((await patch(ownerToken, second.id, { perms: 2 })).status, 200, 'an owner may demote another owner');
    await service.db.updateTable('users').set({ perms: 3 }).where('id', '=', second.id).execute();
    assert.equal((await patch(second.token, ownerId, { perms: 2 })).status, 200);
    assert.equal((await patch(second.token, second.id, { perms: 2 })).status, 403, 'now the last owner');
    await service.db.updateTable('users').set({ perms: 3 }).where('id', '=', ownerId).execute();
  });

  /** A player holding a role grant of `level`, ending in an hour. */
  const withGrant = async (level: number) => {
    const player = await withPerms(0);
    const expired_at = Math.floor(clock.now() / 1000) + 3600;
    const granted = await service.call('POST', `/api/admin/user/role/${player.id}`, {
      token: ownerToken,
      body: { role_level: level, expired_at },
    });
    assert.equal(granted.status, 200);
    return player;
  };
  const permsOf = async (id: number) =>
    (await service.db.selectFrom('users').select('perms').where('id', '=', id).executeTakeFirstOrThrow()).perms;
  const grantOf = (id: number) =>
    service.db.selectFrom('role_grants').select(['role_level', 'expires_at']).where('user_id', '=', id).executeTakeFirst();

  it('lets a temporary owner act as one, never appoint, demote or ban (M3)', async () => {
    const tempo = await withGrant(3);
    const ownerId = await idOf(OWNER.username);
    const player = await withPerms(0);
    const grantBefore = await grantOf(tempo.id);
    const refused: [string | number, object, RegExp][] = [
      [tempo.id, { perms: 3 }, /own perms/],
      [ownerId, { perms: 0 }, /role grant/],
      [ownerId, { perms: -1 }, /role grant/],
      [player.id, { perms: -1 }, /role grant/],
      [player.id, { perms: 2 }, /role grant/],
      [ownerId, { password: 'a brand new password 1' }, /at or above/],
    ];
    for (const [target, body, message] of refused) {
      const reply = await patch(tempo.token, target, body);
      assert.equal(reply.status, 403, `${target} ${JSON.stringify(body)}`);
      assert.match(reply.body.msg, message);
    }
    for (const [path, body] of [
      [`/api/admin/user/role/${tempo.id}`, { role_level: 3 }],
      [`/api/admin/user/role/${player.id}`, { role_level: 1 }],
    ] as const) {
      assert.equal((await service.call('POST', path, { token: tempo.token, body })).status, 403, path);
    }
    assert.equal((await service.call('DELETE', `/api/admin/user/role/${tempo.id}`, { token: tempo.token })).status, 403);
    assert.deepEqual(
      [await permsOf(tempo.id), await permsOf(ownerId), await permsOf(player.id), await grantOf(player.id)],
      [0, 3, 0, undefined],
      'nothing changed',
    );
    assert.deepEqual(await grantOf(tempo.id), grantBefore);
    const renamed = await patch(tempo.token, player.id, { mail_verify: true });
    assert.equal(renamed.status, 200, 'edits below its level as an owner would');
  });

  it('refuses anyone a role grant of their own, the permanent owner too', async () => {
    const ownerId = await idOf(OWNER.username);
    const reply = await service.call('POST', `/api/admin/user/role/${ownerId}`, { token: ownerToken, body: { role_level: 1 } });
    assert.equal(reply.status, 403);
    assert.match(reply.body.msg, /own/);
    assert.equal(await grantOf(ownerId), undefined);
  });

  it('lets a permanent admin ban and unban players, but not set any other perms; a temporary admin neither', async () => {
    const admin = await withPerms(2);
    const player = await withPerms(0);
    assert.equal((await patch(admin.token, player.id, { perms: -1 })).status, 200);
    assert.equal(await permsOf(player.id), -1);
    assert.equal((await patch(admin.token, player.id, { perms: 0 })).status, 200, 'unban');
    const promote = await patch(admin.token, player.id, { perms: 1 });
    assert.equal(promote.status, 403);
    assert.match(promote.body.msg, /owner/);
    const otherAdmin = await withPerms(2);
    assert.equal((await patch(admin.token, otherAdmin.id, { perms: -1 })).status, 403, 'not an equal');
    const tempAdmin = await withGrant(2);
    assert.equal((await patch(tempAdmin.token, player.id, { perms: -1 })).status, 403, 'not through a grant');
    assert.equal(await permsOf(player.id), 0);
    assert.equal(await permsOf(otherAdmin.id), 2);
  });

  it('lets an owner demote another owner, and a temporary owner holder be banned by a permanent admin', async () => {
    const second = await withPerms(3);
    assert.equal((await patch(ownerToken, second.id, { perms: 0 })).status, 200);
    assert.equal(await permsOf(second.id), 0);
    const tempo = await withGrant(3);
    const admin = await withPerms(2);
    assert.equal((await patch(admin.token, tempo.id, { mail_verify: true })).status, 403, 'other fields go by its level');
    assert.equal((await patch(admin.token, tempo.id, { perms: -1 })).status, 200, "the ban goes by the target's perms");
  });

  it('shows password hashes and LaunchServer columns to permanent owners only (M5)', async () => {
    const player = await withPerms(0);
    // What a LaunchServer's sql core writes.
    await service.db
      .updateTable('users')
      .set({ access_token: 'launchserver-token', server_id: 'server', hwid_id: '7' })
      .where('id', '=', player.id)
      .execute();
    const recordFor = async (token: string) => {
      const reply = await service.call('GET', `/api/admin/users?search=${player.username}`, { token });
      assert.equal(reply.status, 200);
      return reply.body.data[0] as { password: string; accessToken: string | null; serverID: string | null; hwidId: string | null };
    };
    for (const viewer of [await withPerms(1), await withPerms(2), await withGrant(3)]) {
      const record = await recordFor(viewer.token);
      assert.deepEqual([record.password, record.accessToken, record.serverID, record.hwidId], ['', null, null, null]);
    }
    const owners = await recordFor(ownerToken);
    assert.match(owners.password, /^\$argon2id\$/, 'the stored hash, never the password');
    assert.deepEqual([owners.accessToken, owners.serverID, owners.hwidId], ['launchserver-token', 'server', '7']);
  });

  it('applies concurrent patches of one user without losing any', async () => {
    const player = await service.registerPlayer();
    const name = `c_${player.username}`.slice(0, 16);
    const results = await Promise.all([
      patch(ownerToken, player.username, { mail: `c_${player.mail}`, mail_verify: true }),
      patch(ownerToken, player.username, { mail_verification: false }),
      patch(ownerToken, player.username, { password: 'concurrent password' }),
    ]);
    assert.deepEqual(
      results.map((reply) => reply.status),
      [200, 200, 200],
    );
    const renamed = await patch(ownerToken, player.username, { username: name });
    assert.equal(renamed.status, 200);
    const detail = (await service.call('GET', `/api/admin/user/${name}`, { token: ownerToken })).body.data;
    assert.equal(detail.Mail, `c_${player.mail}`);
    assert.equal(detail.Mail_verify, 1);
    assert.equal(detail.Mail_verification, 0);
    assert.equal(
      (await service.call('POST', '/api/auth/login', { body: { username: name, password: 'concurrent password' } })).status,
      200,
    );
  });

  it('grants a temporary role that counts until expired_at and not one request after', async () => {
    const player = await service.registerPlayer();
    const id = await idOf(player.username);
    const expiry = Math.floor(clock.now() / 1000) + 60;
    const granted = await service.call('POST', `/api/admin/user/role/${player.username}`, {
      token: ownerToken,
      body: { user: id, role_level: 2, expired_at: expiry },
    });
    assert.equal(granted.status, 200);
    assert.deepEqual(granted.body.data, { id, new_role_level: 2, expired_at: expiry });
    assert.equal((await service.call('GET', '/api/admin/skins', { token: player.token })).status, 200, 'the granted level counts at once');
    assert.equal((await service.call('GET', '/api/home', { token: player.token })).body.data.PermLvl, 2);
    clock.advance(60_000);
    assert.equal((await service.call('GET', '/api/admin/skins', { token: player.token })).status, 403, 'and stops at expired_at');
    const audit = await service.db
      .selectFrom('audit_log')
      .select('action')
      .where('target_id', '=', id)
      .where('action', 'in', ['role.grant', 'role.expire'])
      .orderBy('id')
      .execute();
    assert.deepEqual(
      audit.map((row) => row.action),
      ['role.grant', 'role.expire'],
    );

    const iso = new Date(clock.now() + 3600_000).toISOString();
    const again = await service.call('POST', `/api/admin/user/role/${id}`, { token: ownerToken, body: { role_level: 1, expired_at: iso } });
    assert.equal(again.body.data.expired_at, Math.floor((clock.now() + 3600_000) / 1000), 'ISO 8601 accepted');
    const permanent = await service.call('POST', `/api/admin/user/role/${id}`, { token: ownerToken, body: { role_level: 1 } });
    assert.deepEqual(permanent.body.data, { id, new_role_level: 1 }, 'granting again replaces; no expiry means permanent');
    assert.equal((await service.db.selectFrom('role_grants').select('id').where('user_id', '=', id).execute()).length, 1);
  });

  it('refuses bad role grants', async () => {
    const player = await service.registerPlayer();
    const id = await idOf(player.username);
    const admin = await withPerms(2);
    const past = Math.floor(clock.now() / 1000) - 1;
    const cases: [string, object, number][] = [
      [ownerToken, { role_level: 2, expired_at: past }, 400],
      [ownerToken, { role_level: 4 }, 400],
      [ownerToken, { role_level: 0 }, 400],
      [ownerToken, { user: id + 1, role_level: 1 }, 400],
      [ownerToken, { role_level: 1, expired_at: 'someday' }, 400],
      // Past any column's range (PostgreSQL's bigint milliseconds): refused as a date, not a database error.
      [ownerToken, { role_level: 1, expired_at: 1e17 }, 400],
      [ownerToken, { role_level: 1, expired_at: '100000000000000000' }, 400],
      [admin.token, { role_level: 1 }, 403],
    ];
    for (const [token, body, status] of cases) {
      assert.equal((await service.call('POST', `/api/admin/user/role/${id}`, { token, body })).status, status, JSON.stringify(body));
    }
    assert.equal(
      (await service.call('POST', '/api/admin/user/role/nobody_here', { token: ownerToken, body: { role_level: 1 } })).status,
      404,
    );
  });

  it('lists the audit log with its filters', async () => {
    const player = await service.registerPlayer();
    const id = await idOf(player.username);
    await patch(ownerToken, player.username, { mail_verification: false });
    const forUser = await service.call('GET', `/api/admin/audit?for=${id}`, { token: ownerToken });
    assert.equal(forUser.status, 200);
    assert.deepEqual(forUser.body.data.map((entry: { action: string }) => entry.action).sort(), [
      'auth.confirm_mail',
      'auth.register',
      'auth.register_finish',
      'user.update',
    ]);
    const entry = forUser.body.data.find((row: { action: string }) => row.action === 'user.update');
    assert.deepEqual(
      { iss: entry.iss, for: entry.for, details: entry.details },
      { iss: OWNER.username, for: id, details: { mail_verification: false } },
    );
    assert.equal(typeof entry.time, 'number');
    const ownerId = await idOf(OWNER.username);
    assert.deepEqual([entry.for_name, entry.iss_id], [player.username, ownerId], 'beyond interface.md: names and ids for the console');
    const byAction = await service.call('GET', `/api/admin/audit?action=user.update&iss=${OWNER.username}&limit=1`, { token: ownerToken });
    assert.equal(byAction.body.data.length, 1);
    assert.ok(Number(byAction.headers['x-total-count']) >= 1);
    const now = Math.floor(clock.now() / 1000);
    assert.equal((await service.call('GET', `/api/admin/audit?since=${now + 1}`, { token: ownerToken })).body.data.length, 0);
    assert.ok((await service.call('GET', `/api/admin/audit?until=${now}&for=${id}`, { token: ownerToken })).body.data.length >= 4);
    assert.equal((await service.call('GET', '/api/admin/audit?since=yesterday', { token: ownerToken })).status, 400);
  });

  it('answers 400, not 500, to an offset or a time too large for the database', async () => {
    const huge = '99999999999999999999';
    for (const url of [
      `/api/admin/users?offset=${huge}`,
      '/api/admin/users?offset=2147483648',
      `/api/admin/skins?offset=${huge}`,
      `/api/admin/allcapes?offset=${huge}`,
      `/api/admin/invites?offset=${huge}`,
      `/api/admin/hardware?offset=${huge}`,
      `/api/admin/audit?offset=${huge}`,
      `/api/admin/audit?since=${huge}`,
      `/api/admin/audit?until=${huge}`,
    ]) {
      const reply = await service.call('GET', url, { token: ownerToken });
      assert.equal(reply.status, 400, url);
      assert.equal(reply.body.error, true, url);
    }
    const largest = await service.call('GET', '/api/admin/audit?offset=2147483647&until=253402300799', { token: ownerToken });
    assert.deepEqual([largest.status, largest.body.data], [200, []]);
  });

  it('lists a role grant with the effective level, and revokes it (owners only, audited)', async () => {
    const player = await service.registerPlayer();
    const id = await idOf(player.username);
    const moderator = await withPerms(1);
    const admin = await withPerms(2);
    const expiry = Math.floor(clock.now() / 1000) + 3600;
    await service.call('POST', `/api/admin/user/role/${id}`, { token: ownerToken, body: { role_level: 2, expired_at: expiry } });

    const grant = {
      role_level: 2,
      expired_at: expiry,
      active: true,
      granted_at: Math.floor(clock.now() / 1000),
      granted_by: OWNER.username,
    };
    const listed = await service.call('GET', `/api/admin/users?search=${player.username}`, { token: moderator.token });
    assert.deepEqual([listed.body.data[0].perms, listed.body.data[0].level, listed.body.data[0].role_grant], [0, 2, grant]);
    const grants = await service.call('GET', `/api/admin/user/role/${player.username}`, { token: moderator.token });
    assert.equal(grants.status, 200);
    assert.deepEqual(grants.body.data, [grant]);
    const detail = await service.call('GET', `/api/admin/user/${player.username}`, { token: moderator.token });
    assert.deepEqual(
      [detail.body.data.Id, detail.body.data.Perms, detail.body.data.PermLvl],
      [id, 0, 2],
      'the admin view has id and perms',
    );
    assert.equal((await service.call('GET', '/api/home', { token: player.token })).body.data.Id, undefined, 'GET /api/home does not');

    assert.equal((await service.call('DELETE', `/api/admin/user/role/${id}`, { token: admin.token })).status, 403);
    assert.equal((await service.call('GET', '/api/admin/skins', { token: player.token })).status, 200, 'the grant still counts');
    const revoked = await service.call('DELETE', `/api/admin/user/role/${player.username}`, { token: ownerToken });
    assert.equal(revoked.status, 200);
    assert.deepEqual(revoked.body.data, { id, level: 0 });
    assert.equal((await service.call('GET', '/api/admin/skins', { token: player.token })).status, 403, 'and stops at once');
    assert.deepEqual((await service.call('GET', `/api/admin/user/role/${id}`, { token: ownerToken })).body.data, []);
    const audit = await service.call('GET', `/api/admin/audit?for=${id}&action=role.revoke`, { token: ownerToken });
    assert.deepEqual(
      audit.body.data.map((entry: { iss: string; details: object }) => [entry.iss, entry.details]),
      [[OWNER.username, { role_level: 2, expired_at: expiry }]],
    );
    const again = await service.call('DELETE', `/api/admin/user/role/${id}`, { token: ownerToken });
    assert.equal(again.status, 404);
    assert.match(again.body.msg, /has no role grant/);
    assert.equal((await service.call('DELETE', '/api/admin/user/role/nobody_here', { token: ownerToken })).status, 404);
    assert.equal((await service.call('GET', '/api/admin/user/role/nobody_here', { token: ownerToken })).status, 404);

    await service.call('POST', `/api/admin/user/role/${id}`, { token: ownerToken, body: { role_level: 1, expired_at: expiry } });
    clock.advance(3600_000);
    ownerToken = await service.ownerToken(); // the web session of the earlier token lapsed with the hour
    const expired = (await service.call('GET', `/api/admin/users?search=${player.username}`, { token: ownerToken })).body.data[0];
    assert.deepEqual([expired.level, expired.role_grant.active], [0, false], 'an expired grant is listed, not counted');
  });

  it('keeps the ban over a grant in the listed level', async () => {
    const player = await service.registerPlayer();
    await service.call('POST', `/api/admin/user/role/${player.username}`, { token: ownerToken, body: { role_level: 1 } });
    await patch(ownerToken, player.username, { perms: -1 });
    const listed = (await service.call('GET', `/api/admin/users?search=${player.username}`, { token: ownerToken })).body.data[0];
    assert.deepEqual([listed.perms, listed.level, listed.role_grant.role_level], [-1, -1, 1]);
  });
});
