import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { describeEachDatabase } from '../../test/support/databases.ts';
import { freePort } from '../../test/support/net.ts';
import { until } from '../../test/support/wait.ts';
import { randomAddress, startService, uniqueName, type TestService } from '../../test/support/service.ts';
import { codeIn, mailTo, startSmtpServer, type Mailbox } from '../../test/support/smtp.ts';

describeEachDatabase('mail delivery', (kind) => {
  const cleanups: (() => Promise<void>)[] = [];
  after(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('keeps mail while the SMTP server is down and delivers it once when it comes back', async () => {
    const port = await freePort();
    const offline: Mailbox = {
      url: `smtp://127.0.0.1:${port}`,
      port,
      messages: [],
      waitFor: () => Promise.reject(new Error('offline')),
      close: async () => {},
    };
    const service = await startService(kind, { mailbox: offline });
    cleanups.push(() => service.close());
    const mail = `${uniqueName()}@example.org`;
    const registered = await service.call('POST', '/api/auth/register', {
      body: { mail, password: 'a good password' },
      ip: randomAddress(),
    });
    assert.equal(registered.status, 200, 'the request does not wait for SMTP');

    const row = () => service.db.selectFrom('mail_outbox').selectAll().where('recipient', '=', mail).executeTakeFirstOrThrow();
    await until(async () => (await row()).attempts >= 2, 'two failed attempts');
    const failing = await row();
    assert.equal(failing.sent_at, null);
    assert.equal(failing.failed_at, null, 'a connection failure is retried, not given up');
    assert.ok(failing.last_error);

    const mailbox = await startSmtpServer(port);
    cleanups.push(() => mailbox.close());
    const arrived = await mailbox.waitFor(mailTo(mail));
    assert.equal(arrived.subject, 'Confirm your mail address');
    await sleep(600); // longer than the worker's poll and retry delays: a duplicate would arrive by now
    assert.equal(mailbox.messages.filter(mailTo(mail)).length, 1, 'delivered exactly once');
    assert.notEqual((await row()).sent_at, null);
  });

  it('sends plain-text and HTML bodies with the code and the link', async () => {
    const service = await startService(kind);
    cleanups.push(() => service.close());
    const mail = `${uniqueName()}@example.org`;
    await service.call('POST', '/api/auth/register', { body: { mail, password: 'a good password' }, ip: randomAddress() });
    const message = await service.mailbox.waitFor(mailTo(mail));
    const code = codeIn(message);
    const link = `http://skins.test/register/confirm?code=${code}`;
    assert.ok(message.text!.includes(link));
    assert.ok(String(message.html).includes(code));
    assert.ok(String(message.html).includes(`href="${link}"`));
    assert.match(String(message.from?.text), /no-reply@skins\.test/);
  });
});

describeEachDatabase('mail without SMTP', (kind) => {
  let service: TestService;
  after(async () => service?.close());

  it('writes each mail as an .eml file to DATA_DIR/outbox', async () => {
    service = await startService(kind, { settings: { smtpUrl: null } });
    const mail = `${uniqueName()}@example.org`;
    await service.call('POST', '/api/auth/register', { body: { mail, password: 'a good password' }, ip: randomAddress() });
    const outbox = join(service.settings.dataDir, 'outbox');
    await until(async () => {
      try {
        return readdirSync(outbox).some((file) => file.endsWith('.eml'));
      } catch {
        return false;
      }
    }, 'an .eml file');
    const files = readdirSync(outbox);
    assert.deepEqual(
      files.filter((file) => file.endsWith('.tmp')),
      [],
      'no half-written files',
    );
    const eml = readFileSync(join(outbox, files[0]!), 'utf8');
    assert.match(eml, new RegExp(`To: ${mail}`));
    assert.match(eml, /Your code: [A-Z0-9]{5}-[A-Z0-9]{5}/);
  });
});
