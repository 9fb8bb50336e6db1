// The console's dashboard (issue 14, item 9): the figures a moderator sees first, counted from what is stored.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { ManualClock } from '../../test/support/clock.ts';
import { describeEachDatabase } from '../../test/support/databases.ts';
import { capeFile, fixture, skinFile } from '../../test/support/fixtures.ts';
import { until } from '../../test/support/wait.ts';
import { OWNER, randomAddress, startService, uniqueName, type TestService } from '../../test/support/service.ts';

const DAY_MS = 86_400_000;

describeEachDatabase('dashboard', (kind) => {
  const clock = new ManualClock();
  let service: TestService;
  let owner: string;
  before(async () => {
    service = await startService(kind, {
      clock,
      settings: { owner: OWNER, jwtTtlSeconds: 30 * 86400 },
      // The test's own mail to everyone stays in progress: the loop's next pass is an hour away.
      app: { broadcast: { intervalMs: 3_600_000 } },
    });
    owner = await service.ownerToken();
  });
  after(async () => service?.close());

  const dashboard = async (token = owner) => {
    const reply = await service.call('GET', '/api/admin/dashboard', { token });
    assert.equal(reply.status, 200, reply.body?.msg);
    return reply.body.data;
  };

  it('counts accounts, textures, mail and shows the newest audit entries with names', async () => {
    const empty = await dashboard();
    assert.deepEqual(empty.accounts, { total: 1, new_this_week: 1, unverified: 0, banned: 0 }, 'the owner alone');
    assert.deepEqual(empty.skins, { count: 0, bytes: 0 });
    assert.deepEqual(empty.capes, { count: 0, bytes: 0 });
    assert.equal(empty.broadcast, null);
    assert.equal(empty.registration, 'open');

    const veteran = await service.registerPlayer();
    clock.advance(8 * DAY_MS);
    const player = await service.registerPlayer();
    const banned = await service.registerPlayer();
    await service.db.updateTable('users').set({ perms: -1 }).where('username', '=', banned.username).execute();
    const pending = `${uniqueName()}@example.org`;
    assert.equal(
      (
        await service.call('POST', '/api/auth/register', {
          body: { mail: pending, password: 'correct horse battery' },
          ip: randomAddress(),
        })
      ).status,
      200,
    );

    // The same picture twice is one file; a second picture is another.
    for (const [token, name] of [
      [veteran.token, 'classic'],
      [player.token, 'classic'],
      [player.token, 'hd-128'],
    ] as const) {
      assert.equal((await service.upload('/api/home/skins', token, {}, skinFile(name))).status, 200);
    }
    const cape = await service.upload('/api/admin/user/cape/upload', owner, { name: 'Founders' }, capeFile('cape'));
    assert.equal(cape.status, 200, cape.body?.msg);
    const files = await service.db.selectFrom('textures').select(['digest', 'byte_size']).execute();
    const skinDigests = new Set((await service.db.selectFrom('skins').select('texture_digest').execute()).map((row) => row.texture_digest));
    const bytesOf = (digests: Set<string>) =>
      files.filter((file) => digests.has(file.digest)).reduce((sum, file) => sum + file.byte_size, 0);
    assert.equal(skinDigests.size, 2);

    const now = clock.now();
    const mail = { recipient: 'someone@example.org', subject: 'Hello', text_body: 'Hello', html_body: '<p>Hello</p>', attempts: 0 };
    await service.db
      .insertInto('mail_outbox')
      .values([
        { ...mail, created_at: now, next_attempt_at: now + 3_600_000 }, // waiting for its next attempt
        { ...mail, created_at: now, next_attempt_at: now, failed_at: now, last_error: '550 no such user' },
      ])
      .execute();
    await service.db
      .insertInto('broadcasts')
      .values({ subject: 'Server moves', message: 'On Friday', created_by: null, created_at: now, last_user_id: 0, queued: 0 })
      .execute();

    // The registrations' own mails leave the queue as the worker sends them.
    let seen = await dashboard();
    await until(async () => (seen = await dashboard()).mail.queued === 1, 'the registration mails to be sent');
    assert.deepEqual(seen.accounts, { total: 5, new_this_week: 3, unverified: 1, banned: 1 });
    assert.deepEqual(seen.skins, { count: 3, bytes: bytesOf(skinDigests) });
    assert.ok(seen.skins.bytes > fixture('skins/classic.png').length / 4, 'bytes of the stored files');
    assert.equal(seen.capes.count, 1);
    assert.equal(seen.capes.bytes, bytesOf(new Set([cape.body.data.digest])));
    assert.deepEqual(seen.mail, { queued: 1, failed: 1 });
    assert.deepEqual({ ...seen.broadcast, id: 0 }, { id: 0, subject: 'Server moves', started_at: Math.floor(now / 1000), queued: 0 });

    assert.equal(seen.audit.length, 10);
    const [newest] = seen.audit;
    const latest = await service.db.selectFrom('audit_log').select(['id', 'action']).orderBy('id', 'desc').executeTakeFirstOrThrow();
    assert.equal(newest.id, latest.id);
    assert.deepEqual(
      seen.audit.map((entry: { id: number }) => entry.id),
      [...seen.audit.map((entry: { id: number }) => entry.id)].sort((a, b) => b - a),
      'newest first',
    );
    const register = seen.audit.find((entry: { action: string }) => entry.action === 'auth.register');
    assert.equal(register.for_name, pending, 'named by the mail before step 3');
    assert.equal(register.iss_id, register.for, 'by the account itself');
    const upload = seen.audit.find((entry: { action: string }) => entry.action === 'cape.upload');
    assert.equal(upload.iss, OWNER.username);
    assert.ok(upload.iss_id > 0);
    const finished = seen.audit.find((entry: { action: string; for_name: string }) => entry.action === 'auth.register_finish');
    assert.ok([player.username, banned.username].includes(finished.for_name), 'named by the username');
  });

  it('is for moderators and above', async () => {
    const player = await service.registerPlayer();
    assert.equal((await service.call('GET', '/api/admin/dashboard', { token: player.token })).status, 403);
    await service.db.updateTable('users').set({ perms: 1 }).where('username', '=', player.username).execute();
    assert.equal((await dashboard(player.token)).accounts.total >= 6, true);
  });
});
