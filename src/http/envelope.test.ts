import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildApp } from '../app.ts';
import { describeEachDatabase } from '../../test/support/databases.ts';
import { startService, testSettings, type TestService } from '../../test/support/service.ts';

const isErrorEnvelope = (body: any) =>
  body.error === true && typeof body.msg === 'string' && body.msg.length > 0 && body.url === null && JSON.stringify(body.data) === '{}';

describeEachDatabase('envelope and errors', (kind) => {
  let service: TestService;
  before(async () => {
    service = await startService(kind);
  });
  after(async () => service?.close());

  it('answers an unknown route with a 404 envelope and a request id', async () => {
    const reply = await service.call('GET', '/api/nothing-here');
    assert.equal(reply.status, 404);
    assert.ok(isErrorEnvelope(reply.body));
    assert.match(String(reply.headers['x-request-id']), /^[0-9a-f-]{36}$/);
  });

  it('treats paths as case-sensitive', async () => {
    assert.equal((await service.call('GET', '/API/HOME')).status, 404);
  });

  it('answers a wrong method with 405 and Allow', async () => {
    const reply = await service.call('DELETE', '/api/auth/login');
    assert.equal(reply.status, 405);
    assert.equal(reply.headers.allow, 'POST');
    assert.ok(isErrorEnvelope(reply.body));
  });

  it('answers malformed JSON with 400', async () => {
    const reply = await service.call('POST', '/api/auth/login', { body: '{"username": "a",' });
    assert.equal(reply.status, 400);
    assert.ok(isErrorEnvelope(reply.body));
    assert.match(reply.body.msg, /JSON/);
  });

  it('answers an oversized body with 413', async () => {
    const reply = await service.call('POST', '/api/auth/login', { body: { username: 'x'.repeat(100_000), password: 'y' } });
    assert.equal(reply.status, 413);
    assert.ok(isErrorEnvelope(reply.body));
  });

  it('answers a wrong content type with 415', async () => {
    const reply = await service.call('POST', '/api/auth/login', { headers: { 'content-type': 'text/plain' }, body: 'username=a' });
    assert.equal(reply.status, 415);
    assert.ok(isErrorEnvelope(reply.body));
  });

  it('names the field in a validation error', async () => {
    const reply = await service.call('POST', '/api/auth/login', { body: { username: 'someone' } });
    assert.equal(reply.status, 400);
    assert.match(reply.body.msg, /"password" is required/);
  });

  it('answers health and readiness', async () => {
    assert.equal((await service.call('GET', '/healthz')).status, 200);
    const ready = await service.call('GET', '/readyz');
    assert.equal(ready.status, 200);
    assert.equal(ready.body.error, false);
  });
});

describe('unexpected errors', () => {
  let app: Awaited<ReturnType<typeof buildApp>>;
  before(async () => {
    app = await buildApp(testSettings({}), { logger: false });
    app.get('/boom', async () => {
      throw new Error('SELECT password FROM users at /srv/secret/path.ts:12');
    });
    await app.ready();
  });
  after(async () => app?.close());

  it('become a 500 envelope with the request id and no internals', async () => {
    const reply = await app.inject({ method: 'GET', url: '/boom' });
    assert.equal(reply.statusCode, 500);
    const body = reply.json();
    assert.ok(isErrorEnvelope(body));
    assert.ok(body.msg.includes(String(reply.headers['x-request-id'])));
    assert.doesNotMatch(reply.body, /SELECT|secret|\.ts|at /);
  });
});
