import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { decodeJwt, SignJWT, UnsecuredJWT } from 'jose';
import { ManualClock } from '../../test/support/clock.ts';
import { describeEachDatabase } from '../../test/support/databases.ts';
import { startService, type TestService } from '../../test/support/service.ts';

describeEachDatabase('tokens and the authentication hook', (kind) => {
  const clock = new ManualClock();
  let service: TestService;
  before(async () => {
    service = await startService(kind, { clock });
  });
  after(async () => service?.close());

  const home = (token?: string, headers?: Record<string, string>) => service.call('GET', '/api/home', { token, headers });
  const key = () => new TextEncoder().encode(service.settings.jwtSecret);
  const sign = (claims: Record<string, unknown>, alg = 'HS256', secret = key()) =>
    new SignJWT(claims).setProtectedHeader({ alg }).sign(secret);

  it('accepts the token from login', async () => {
    const player = await service.registerPlayer();
    const reply = await home(player.token);
    assert.equal(reply.status, 200);
    assert.equal(reply.body.data.Username, player.username);
  });

  it('refuses a missing or malformed Authorization header with 401', async () => {
    const missing = await home();
    assert.equal(missing.status, 401);
    assert.equal(missing.headers['www-authenticate'], 'Bearer');
    assert.deepEqual({ ...missing.body, msg: '' }, { error: true, msg: '', url: null, data: {} });
    assert.equal((await home(undefined, { authorization: 'Basic dXNlcjpwYXNz' })).status, 401);
    assert.equal((await home('not.a.jwt')).status, 401);
  });

  it('refuses a token whose payload was tampered with', async () => {
    const victim = await service.registerPlayer();
    const attacker = await service.registerPlayer();
    const victimId = decodeJwt(victim.token).sub as unknown as number;
    const [header, payload, signature] = attacker.token.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    const forged = Buffer.from(JSON.stringify({ ...claims, sub: victimId })).toString('base64url');
    assert.equal((await home(`${header}.${forged}.${signature}`)).status, 401);
  });

  it('refuses alg none, another algorithm and another secret', async () => {
    const player = await service.registerPlayer();
    const claims = decodeJwt(player.token);
    const unsecured = new UnsecuredJWT(claims).encode();
    assert.equal((await home(unsecured)).status, 401, 'alg: none');
    assert.equal((await home(await sign(claims, 'HS512'))).status, 401, 'algorithm pinned to HS256');
    assert.equal((await home(await sign(claims, 'HS256', new TextEncoder().encode('x'.repeat(40))))).status, 401, 'another secret');
    assert.equal(
      (await home(await sign(claims))).status,
      200,
      'the same claims signed properly pass: the refusals above are about the signature',
    );
  });

  it("refuses a validly signed token that names another user's session", async () => {
    const first = await service.registerPlayer();
    const second = await service.registerPlayer();
    const claims = decodeJwt(first.token);
    const forged = await sign({ ...claims, sub: decodeJwt(second.token).sub });
    assert.equal((await home(forged)).status, 401);
  });

  it('refuses an expired token', async () => {
    const player = await service.registerPlayer();
    clock.advance(service.settings.jwtTtlSeconds * 1000 + 1000);
    const expired = await home(player.token);
    assert.equal(expired.status, 401);
    assert.match(expired.body.msg, /expired/);
  });

  it('refuses a revoked token', async () => {
    const player = await service.registerPlayer();
    await service.call('POST', '/api/auth/logout', { token: player.token });
    const revoked = await home(player.token);
    assert.equal(revoked.status, 401);
    assert.match(revoked.body.msg, /revoked/);
  });

  it('gives a banned account 403, and refuses its login', async () => {
    const player = await service.registerPlayer();
    await service.db.updateTable('users').set({ perms: -1 }).where('username', '=', player.username).execute();
    assert.equal((await home(player.token)).status, 403);
    const login = await service.call('POST', '/api/auth/login', { body: { username: player.username, password: player.password } });
    assert.equal(login.status, 403);
    assert.match(login.body.msg, /banned/);
  });

  it('raises the level by an unexpired role grant, and records its expiry once', async () => {
    const player = await service.registerPlayer();
    const user = await service.db.selectFrom('users').select('id').where('username', '=', player.username).executeTakeFirstOrThrow();
    await service.db
      .insertInto('role_grants')
      .values({
        user_id: user.id,
        role_level: 2,
        expires_at: clock.now() + 60_000,
        granted_by: null,
        granted_at: clock.now(),
        expiry_recorded: 0,
      })
      .execute();
    assert.equal((await home(player.token)).body.data.PermLvl, 2);
    clock.advance(60_000);
    assert.equal((await home(player.token)).body.data.PermLvl, 0, 'not one request after expired_at');
    await home(player.token);
    const expiries = await service.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'role.expire')
      .where('target_id', '=', user.id)
      .execute();
    assert.equal(expiries.length, 1);
    assert.equal(expiries[0]!.iss, 'system');
  });
});
