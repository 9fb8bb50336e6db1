import assert from 'node:assert/strict';
import { connect, type AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { buildApp } from '../app.ts';
import { describeEachDatabase } from '../../test/support/databases.ts';
import { OWNER, startService, testSettings, type TestService } from '../../test/support/service.ts';

const isErrorEnvelope = (body: any) =>
  body.error === true && typeof body.msg === 'string' && body.msg.length > 0 && body.url === null && JSON.stringify(body.data) === '{}';

describeEachDatabase('envelope and errors', (kind) => {
  let service: TestService;
  before(async () => {
    service = await startService(kind, { settings: { owner: OWNER } });
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

  it('names the message key and the field of a refusal in headers, for the pages to word it in their language', async () => {
    const invalid = await service.call('POST', '/api/auth/login', { body: { username: 'someone' }, headers: { 'accept-language': 'ru' } });
    assert.equal(invalid.status, 400);
    assert.equal(invalid.headers['x-error-key'], 'validation.required');
    assert.deepEqual(JSON.parse(String(invalid.headers['x-error-params'])), { field: 'password' });
    assert.match(invalid.body.msg, /password/);

    const short = await service.call('POST', '/api/auth/register', { body: { mail: 'short@example.org', password: 'seven77' } });
    assert.equal(short.status, 400);
    assert.equal(short.headers['x-error-key'], 'accounts.passwordTooShort');
    assert.deepEqual(JSON.parse(String(short.headers['x-error-params'])), { field: 'password' });

    // A value from the request is escaped to ASCII in the header and read back as it was sent.
    const unknown = await service.call('GET', `/api/admin/user/${encodeURIComponent('игрок')}`, { token: await service.ownerToken() });
    assert.equal(unknown.status, 404);
    assert.equal(unknown.headers['x-error-key'], 'accounts.noUser');
    assert.match(String(unknown.headers['x-error-params']), /^[\x20-\x7e]+$/);
    assert.deepEqual(JSON.parse(String(unknown.headers['x-error-params'])), { identifier: 'игрок' });

    // The game and launcher APIs keep their own error shapes and fixed texts: no key to word.
    const game = await service.call('POST', '/api/yggdrasil/authserver/authenticate', { body: {} });
    assert.equal(game.status, 400);
    assert.equal(game.headers['x-error-key'], undefined);
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

describe('errors raised before any route runs', () => {
  let app: Awaited<ReturnType<typeof buildApp>>;
  let port: number;
  before(async () => {
    app = await buildApp(testSettings({}), { logger: false });
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as AddressInfo).port;
  });
  after(async () => app?.close());

  /** Sends bytes as they are (no client library that would refuse or repair them) and reads the whole answer. */
  const rawExchange = (request: string) =>
    new Promise<{ status: number; headers: string; body: string }>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => socket.write(request));
      let answer = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk) => (answer += chunk));
      socket.on('error', reject);
      socket.on('close', () => {
        const [head = '', body = ''] = answer.split('\r\n\r\n');
        resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]), headers: head, body });
      });
    });

  it('answer an over-long path value with a 400 envelope', async () => {
    const reply = await app.inject({ method: 'GET', url: `/api/admin/user/${'a'.repeat(300)}` });
    assert.equal(reply.statusCode, 400);
    assert.ok(isErrorEnvelope(reply.json()));
    assert.match(reply.json().msg, /path value is too long/);
    assert.match(String(reply.headers['x-request-id']), /^[0-9a-f-]{36}$/);
  });

  it('answer a malformed %-escape in the path with a 400 envelope', async () => {
    const reply = await app.inject({ method: 'GET', url: '/api/skin/head/%E0%A4%A' });
    assert.equal(reply.statusCode, 400);
    assert.ok(isErrorEnvelope(reply.json()));
  });

  it('answer a request that is not HTTP with a 400 envelope', async () => {
    const reply = await rawExchange('HELLO THERE\r\n\r\n');
    assert.equal(reply.status, 400);
    assert.ok(isErrorEnvelope(JSON.parse(reply.body)));
    assert.match(reply.headers, /x-request-id: [0-9a-f-]{36}/i);
    assert.match(reply.headers, /x-authlib-injector-api-location: http:\/\/skins\.test\/api\/yggdrasil\//i);
  });

  it('answer oversized request headers with a 431 envelope', async () => {
    const reply = await rawExchange(`GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(20_000)}\r\n\r\n`);
    assert.equal(reply.status, 431);
    assert.ok(isErrorEnvelope(JSON.parse(reply.body)));
  });
});
