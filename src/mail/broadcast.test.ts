import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { describeEachDatabase } from '../../test/support/databases.ts';
import { until } from '../../test/support/wait.ts';
import { OWNER, randomAddress, startService, uniqueName, type TestService } from '../../test/support/service.ts';
import { mailTo } from '../../test/support/smtp.ts';

describeEachDatabase('mail to all users', (kind) => {
  let service: TestService;
  before(async () => {
    service = await startService(kind, { settings: { owner: OWNER }, app: { broadcast: { batchSize: 2, intervalMs: 150 } } });
  });
  after(async () => service?.close());

  it('mails every verified user once, in batches, and resumes after a restart', async () => {
    const players = [];
    for (let i = 0; i < 5; i += 1) players.push(await service.registerPlayer());
    const banned = await service.registerPlayer();
    await service.db.updateTable('users').set({ perms: -1 }).where('username', '=', banned.username).execute();
    const unverified = `${uniqueName()}@example.org`;
    await service.call('POST', '/api/auth/register', { body: { mail: unverified, password: 'a good password' }, ip: randomAddress() });
    const token = await service.ownerToken();

    const sent = await service.call('POST', '/api/admin/mail', { token, body: { subject: 'News', message: 'Hello <all>\n\nSee you' } });
    assert.equal(sent.status, 200);
    assert.deepEqual(Object.keys(sent.body), ['msg'], 'an object with only msg');
    assert.match(sent.body.msg, /all 6 users/);

    const broadcast = () => service.db.selectFrom('broadcasts').selectAll().executeTakeFirstOrThrow();
    await until(async () => (await broadcast()).queued >= 2, 'the first batch', 15_000);
    assert.equal((await broadcast()).finished_at, null, 'still going when the service stops');
    await service.restart();
    await until(async () => (await broadcast()).finished_at !== null, 'the broadcast to finish', 15_000);

    const expected = [OWNER.mail, ...players.map((player) => player.mail)];
    const news = () => service.mailbox.messages.filter((mail) => mail.subject === 'News');
    await until(async () => news().length >= expected.length, 'every mail to arrive', 15_000);
    await sleep(500); // longer than the worker's poll: a duplicate would have arrived by now
    const recipients = news().map((mail) => (Array.isArray(mail.to) ? mail.to[0] : mail.to)!.value[0]!.address!.toLowerCase());
    assert.deepEqual(recipients.sort(), expected.map((mail) => mail.toLowerCase()).sort(), 'each verified user once, nobody else');
    assert.equal(news().filter(mailTo(banned.mail)).length, 0);
    const message = news()[0]!;
    assert.match(String(message.text), /Hello <all>/);
    assert.match(String(message.html), /Hello &lt;all&gt;/, 'the HTML body escapes the text');

    const actions = (await service.db.selectFrom('audit_log').select('action').where('action', 'like', 'mail.%').execute()).map(
      (row) => row.action,
    );
    assert.ok(actions.includes('mail.broadcast'));
    assert.ok(actions.filter((action) => action === 'mail.broadcast_progress').length >= 2);
    assert.ok(actions.includes('mail.broadcast_queued'));
  });

  it('refuses an empty subject or message', async () => {
    const token = await service.ownerToken();
    for (const body of [{ subject: ' ', message: 'x' }, { subject: 'x', message: '' }, { subject: 'x' }]) {
      const reply = await service.call('POST', '/api/admin/mail', { token, body });
      assert.equal(reply.status, 400, JSON.stringify(body));
      assert.equal(reply.body.error, true);
    }
  });
});
