import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startService, type TestService } from '../../test/support/service.ts';

describe('request ids', () => {
  let direct: TestService;
  let proxied: TestService;
  before(async () => {
    direct = await startService('sqlite');
    proxied = await startService('sqlite', { settings: { trustProxy: true } });
  });
  after(async () => {
    await direct?.close();
    await proxied?.close();
  });

  it('keeps the X-Request-Id of a trusted proxy, and only a well-formed one', async () => {
    const kept = await proxied.call('GET', '/healthz', { headers: { 'x-request-id': 'proxy-7f3a.42:1' } });
    assert.equal(kept.headers['x-request-id'], 'proxy-7f3a.42:1');
    const odd = await proxied.call('GET', '/healthz', { headers: { 'x-request-id': 'two words\nand a line' } });
    assert.match(String(odd.headers['x-request-id']), /^[0-9a-f-]{36}$/);
  });

  it('makes its own id when no proxy is trusted', async () => {
    const reply = await direct.call('GET', '/healthz', { headers: { 'x-request-id': 'made-up-by-a-client' } });
    assert.match(String(reply.headers['x-request-id']), /^[0-9a-f-]{36}$/);
  });
});
