import assert from 'node:assert/strict';
import { DEFAULT_PROFILE_SETTINGS } from '../settings.ts';
import { after, before, it } from 'node:test';
import { SMTPServer } from 'smtp-server';
import { serviceActing } from '../audit/acting.ts';
import { createAccount } from '../accounts/create-account.ts';
import { systemClock } from '../clock.ts';
import { queueMail } from '../mail/outbox.ts';
import { describeEachDatabase } from '../../test/support/databases.ts';
import { startService, uniqueName, type TestService } from '../../test/support/service.ts';
import { until } from '../../test/support/wait.ts';

/** An SMTP server that refuses every recipient for good (550), as a mailbox that does not exist. */
async function refusingSmtpServer() {
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo: (_address, _session, callback) => callback(Object.assign(new Error('No such mailbox'), { responseCode: 550 })),
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `smtp://127.0.0.1:${(server.server.address() as { port: number }).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The samples of an exposition by name and labels, as Prometheus writes them: `name{a="b"}`. */
function parseExposition(text: string): Map<string, number> {
  const samples = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    samples.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return samples;
}

describeEachDatabase('metrics', (kind) => {
  let service: TestService;
  let smtp: Awaited<ReturnType<typeof refusingSmtpServer>>;
  before(async () => {
    smtp = await refusingSmtpServer();
    service = await startService(kind, { settings: { smtpUrl: smtp.url } });
  });
  after(async () => {
    await service?.close();
    await smtp?.close();
  });

  const scrape = async () => {
    const reply = await service.call('GET', '/metrics');
    assert.equal(reply.status, 200);
    assert.match(String(reply.headers['content-type']), /^text\/plain; version=0\.0\.4/);
    return parseExposition(reply.raw.toString());
  };
  const value = (samples: Map<string, number>, key: string) => samples.get(key) ?? 0;

  it('counts request durations by route and status', async () => {
    const healthy = 'skinservice_http_request_duration_seconds_count{method="GET",route="/healthz",status_code="200"}';
    const missing = 'skinservice_http_request_duration_seconds_count{method="GET",route="/api/skin/standart/cape/:uuid",status_code="404"}';
    const before = await scrape();
    await service.call('GET', '/healthz');
    await service.call('GET', '/healthz');
    await service.call('GET', '/api/skin/standart/cape/nobody_here');
    const afterwards = await scrape();
    assert.equal(value(afterwards, healthy) - value(before, healthy), 2);
    assert.equal(value(afterwards, missing) - value(before, missing), 1);
    const infinity = 'skinservice_http_request_duration_seconds_bucket{method="GET",route="/healthz",status_code="200",le="+Inf"}';
    assert.equal(afterwards.get(infinity), afterwards.get(healthy), 'the +Inf bucket counts every request');
    assert.ok(value(afterwards, 'skinservice_http_request_duration_seconds_sum{method="GET",route="/healthz",status_code="200"}') > 0);
  });

  it('counts a repeated head image as a cache hit and the first as a miss', async () => {
    const username = uniqueName();
    await createAccount(
      serviceActing('system'),
      service.db,
      systemClock,
      { username, mail: `${username}@example.org`, password: 'a good password', perms: 0 },
      DEFAULT_PROFILE_SETTINGS,
    );
    const hits = (samples: Map<string, number>) =>
      value(samples, 'skinservice_image_cache_hits_total{layer="answer"}') +
      value(samples, 'skinservice_image_cache_hits_total{layer="render"}');
    const before = await scrape();
    assert.equal((await service.call('GET', `/api/skin/head/${username}?size=64`)).status, 200);
    const once = await scrape();
    assert.equal(value(once, 'skinservice_image_cache_misses_total') - value(before, 'skinservice_image_cache_misses_total'), 1);
    assert.equal(hits(once), hits(before));
    assert.equal((await service.call('GET', `/api/skin/head/${username}?size=64`)).status, 200);
    const twice = await scrape();
    assert.equal(hits(twice) - hits(once), 1);
    assert.equal(value(twice, 'skinservice_image_cache_misses_total'), value(once, 'skinservice_image_cache_misses_total'));
  });

  it('shows the mail queue depth and the mails given up on', async () => {
    const content = { subject: 'Metrics', text: 'text', html: '<p>html</p>' };
    await queueMail(service.db, Date.now() + 3_600_000, 'later@example.org', content);
    await queueMail(service.db, Date.now(), 'refused@example.org', content);
    await until(async () => value(await scrape(), 'skinservice_mail_failed') === 1, 'the refused mail to be given up');
    const samples = await scrape();
    assert.equal(value(samples, 'skinservice_mail_queue_depth'), 1, 'the mail due in an hour waits');
    assert.equal(value(samples, 'skinservice_mail_send_errors_total'), 1);
  });

  it('reports the database connections', async () => {
    const samples = await scrape();
    assert.equal(value(samples, 'skinservice_db_connections_max'), kind === 'sqlite' ? 1 : 10);
    assert.ok(value(samples, 'skinservice_db_connections{state="total"}') >= 1);
    assert.ok(value(samples, 'skinservice_db_connections{state="idle"}') <= value(samples, 'skinservice_db_connections{state="total"}'));
    assert.equal(value(samples, 'skinservice_db_connections{state="waiting"}'), 0);
  });

  it('asks for METRICS_TOKEN when one is set', async () => {
    const token = 'a-scrape-token-long-enough';
    const guarded = await startService(kind, { settings: { metricsToken: token } });
    try {
      assert.equal((await guarded.call('GET', '/metrics')).status, 401);
      assert.equal((await guarded.call('GET', '/metrics', { headers: { authorization: 'Bearer wrong-token-of-same-len' } })).status, 401);
      const allowed = await guarded.call('GET', '/metrics', { headers: { authorization: `Bearer ${token}` } });
      assert.equal(allowed.status, 200);
      assert.match(allowed.raw.toString(), /# TYPE skinservice_http_request_duration_seconds histogram/);
    } finally {
      await guarded.close();
    }
  });
});
