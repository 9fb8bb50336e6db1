// Passkeys through the API (contract section 21) on SQLite and PostgreSQL, with a software authenticator that signs
// as the WebAuthn specification says (test/support/authenticator.ts): added, listed, renamed and removed by their
// player (mailed, audited); a login with one answers as the password login and needs no second factor; what no
// honest browser sends (a stale, reused or foreign challenge, another origin, another relying party, no user
// verification, a counter gone back) is refused and changes nothing; refusals count on the login limits.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { Secret, TOTP } from 'otpauth';
import { assert as assertWith, createPasskey, type ClientContext, type SoftPasskey } from '../../test/support/authenticator.ts';
import { ManualClock } from '../../test/support/clock.ts';
import { describeEachDatabase } from '../../test/support/databases.ts';
import { OWNER, PUBLIC_URL, randomAddress, startService, type TestService } from '../../test/support/service.ts';
import { mailTo } from '../../test/support/smtp.ts';
import { taggedHash } from '../accounts/imported-passwords.ts';

const HERE: ClientContext = { origin: PUBLIC_URL, rpId: new URL(PUBLIC_URL).hostname };
const URL_HOME = '/api/home/passkeys';

describeEachDatabase('passkeys', (kind) => {
  const clock = new ManualClock();
  let service: TestService;
  before(async () => {
    service = await startService(kind, { clock, settings: { owner: OWNER } });
  });
  after(async () => service?.close());

  type Player = Awaited<ReturnType<TestService['registerPlayer']>>;
  const list = async (token: string) => (await service.call('GET', URL_HOME, { token })).body.data as { id: number; name: string }[];
  const creationOptions = async (player: Player) => {
    const reply = await service.call('POST', `${URL_HOME}/options`, { token: player.token, body: { password: player.password } });
    assert.equal(reply.status, 200, reply.raw.toString());
    return reply.body.data as { challenge: string; user: { id: string }; rp: { id: string; name: string } };
  };
  const addPasskey = async (player: Player, name = 'Phone', context = HERE): Promise<SoftPasskey> => {
    const { passkey, response } = createPasskey(await creationOptions(player), context);
    const added = await service.call('POST', URL_HOME, { token: player.token, body: { response, name } });
    assert.equal(added.status, 201, added.raw.toString());
    return passkey;
  };
  const loginOptions = async (ip = randomAddress()) => {
    const reply = await service.call('POST', '/api/auth/passkey/options', { ip });
    assert.equal(reply.status, 200, reply.raw.toString());
    return reply.body.data as { challenge_id: string; options: { challenge: string; rpId: string; userVerification: string } };
  };
  const logIn = async (passkey: SoftPasskey, context: ClientContext & { counter?: number } = HERE, ip = randomAddress()) => {
    const { challenge_id, options } = await loginOptions(ip);
    return service.call('POST', '/api/auth/passkey', { ip, body: { challenge_id, response: assertWith(passkey, options, context) } });
  };
  const userId = async (mail: string) =>
    (await service.db.selectFrom('users').select('id').where('mail', '=', mail).executeTakeFirstOrThrow()).id;
  const auditOf = async (action: string, target: number) =>
    (await service.db.selectFrom('audit_log').select('details').where('action', '=', action).where('target_id', '=', target).execute()).map(
      (row) => JSON.parse(row.details ?? '{}'),
    );
  const me = async (token: string) => service.call('GET', '/api/home', { token });

  it("is added for this site's relying party, listed, renamed and removed with the password; mailed and audited", async () => {
    const player = await service.registerPlayer();
    const options = await creationOptions(player);
    assert.equal(options.rp.id, 'skins.test');
    assert.deepEqual((options as unknown as { authenticatorSelection: object }).authenticatorSelection, {
      residentKey: 'required',
      userVerification: 'required',
      requireResidentKey: true,
    });
    const { response } = createPasskey(options, HERE);
    const added = await service.call('POST', URL_HOME, { token: player.token, body: { response, name: '  Laptop  ' } });
    assert.equal(added.status, 201, added.raw.toString());
    const record = added.body.data as { id: number; name: string; created: number; last_used: null; synced: boolean };
    assert.deepEqual(record, { id: record.id, name: 'Laptop', created: Math.floor(clock.now() / 1000), last_used: null, synced: false });
    assert.deepEqual(await list(player.token), [record]);
    const mail = await service.mailbox.waitFor((m) => mailTo(player.mail)(m) && m.subject === 'A passkey was added to your account');
    assert.match(mail.text ?? '', /“Laptop”/);
    assert.match(mail.text ?? '', /http:\/\/skins\.test\/home/);
    const id = await userId(player.mail);
    assert.deepEqual(await auditOf('passkey.add', id), [{ id: record.id, name: 'Laptop' }]);

    // The same authenticator's second passkey is excluded by the options (one per account); the same credential twice is 409.
    const second = await creationOptions(player);
    assert.deepEqual(
      (second as unknown as { excludeCredentials: { id: string }[] }).excludeCredentials.map((c) => c.id),
      [response.id],
    );
    assert.equal(second.user.id, options.user.id, 'one user handle per account');
    const again = await service.call('POST', URL_HOME, {
      token: player.token,
      body: {
        response: {
          ...response,
          response: { ...response.response, clientDataJSON: createPasskey(second, HERE).response.response.clientDataJSON },
        },
        name: 'Twice',
      },
    });
    assert.equal(again.status, 409, again.raw.toString());

    const renamed = await service.call('PATCH', `${URL_HOME}/${record.id}`, { token: player.token, body: { name: 'Work laptop' } });
    assert.equal(renamed.status, 200);
    assert.equal((await list(player.token))[0]!.name, 'Work laptop');
    for (const name of ['', '   ', 'x'.repeat(65)]) {
      const refused = await service.call('PATCH', `${URL_HOME}/${record.id}`, { token: player.token, body: { name } });
      assert.equal(refused.status, 400, `name ${JSON.stringify(name)}`);
    }

    // Another player can neither see, rename nor remove it.
    const other = await service.registerPlayer();
    assert.deepEqual(await list(other.token), []);
    assert.equal((await service.call('PATCH', `${URL_HOME}/${record.id}`, { token: other.token, body: { name: 'Mine' } })).status, 404);
    assert.equal(
      (await service.call('DELETE', `${URL_HOME}/${record.id}`, { token: other.token, body: { password: other.password } })).status,
      404,
    );

    const wrong = await service.call('DELETE', `${URL_HOME}/${record.id}`, { token: player.token, body: { password: 'not the password' } });
    assert.equal(wrong.status, 401);
    assert.equal((await list(player.token)).length, 1, 'a wrong password removes nothing');
    const removed = await service.call('DELETE', `${URL_HOME}/${record.id}`, { token: player.token, body: { password: player.password } });
    assert.equal(removed.status, 200, removed.raw.toString());
    assert.deepEqual(await list(player.token), []);
    assert.deepEqual(await auditOf('passkey.remove', id), [{ id: record.id, name: 'Work laptop' }]);
  });

  it('is added only with the password (and the two-factor code when that is on): a session alone adds no way in', async () => {
    const player = await service.registerPlayer();
    const ask = (body: object) => service.call('POST', `${URL_HOME}/options`, { token: player.token, body, ip: '203.0.113.9' });
    assert.equal((await ask({})).status, 400, 'no password');
    const wrong = await ask({ password: 'not the password' });
    assert.equal(wrong.status, 401);
    assert.equal(wrong.body.data.field ?? 'password', 'password');
    const setup = await service.call('POST', '/api/home/2fa', { token: player.token, body: { password: player.password } });
    const secret = Secret.fromBase32(setup.body.data.secret as string);
    const codeNow = () => TOTP.generate({ secret, algorithm: 'SHA1', digits: 6, period: 30, timestamp: clock.now() });
    assert.equal((await service.call('POST', '/api/home/2fa/confirm', { token: player.token, body: { code: codeNow() } })).status, 200);
    clock.advance(30_000);
    const needsCode = await ask({ password: player.password });
    assert.equal(needsCode.status, 401);
    assert.equal(needsCode.body.data.totp_required, true);
    assert.equal((await ask({ password: player.password, totp: '000000' })).status, 401);
    const options = await ask({ password: player.password, totp: codeNow() });
    assert.equal(options.status, 200, options.raw.toString());
    assert.deepEqual(await list(player.token), []);
  });

  it('logs in as the password login does, without the two-factor code, and is refused once removed', async () => {
    const player = await service.registerPlayer();
    const passkey = await addPasskey(player);
    const options = await loginOptions();
    assert.equal(options.options.rpId, 'skins.test');
    assert.equal(options.options.userVerification, 'required');

    const login = await logIn(passkey);
    assert.equal(login.status, 200, login.raw.toString());
    assert.equal(login.body.url, `${PUBLIC_URL}/home`);
    const token = login.body.data.jwt as string;
    assert.equal((await me(token)).body.data.Username, player.username, 'the token is a web session of the account');
    const [listed] = (await service.call('GET', URL_HOME, { token })).body.data as { last_used: number }[];
    assert.equal(listed!.last_used, Math.floor(clock.now() / 1000));

    // Two-factor login on: the passkey verified the user, so it is both factors.
    const setup = await service.call('POST', '/api/home/2fa', { token: player.token, body: { password: player.password } });
    const secret = setup.body.data.secret as string;
    const code = TOTP.generate({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30, timestamp: clock.now() });
    assert.equal((await service.call('POST', '/api/home/2fa/confirm', { token: player.token, body: { code } })).status, 200);
    clock.advance(30_000);
    const password = await service.call('POST', '/api/auth/login', { body: { username: player.username, password: player.password } });
    assert.equal(password.body.data.totp_required, true, 'the password alone is not enough');
    const withTwoFactor = await logIn(passkey);
    assert.equal(withTwoFactor.status, 200, withTwoFactor.raw.toString());

    // A banned account is refused as at the password login.
    const ownerToken = await service.ownerToken();
    assert.equal(
      (await service.call('PATCH', `/api/admin/user/${player.username}`, { token: ownerToken, body: { perms: -1 } })).status,
      200,
    );
    assert.equal((await logIn(passkey)).status, 403);
    assert.equal(
      (await service.call('PATCH', `/api/admin/user/${player.username}`, { token: ownerToken, body: { perms: 0 } })).status,
      200,
    );

    // The ban ended the player's sessions: a new one, by the passkey.
    const again = (await logIn(passkey)).body.data.jwt as string;
    const [{ id }] = (await service.call('GET', URL_HOME, { token: again })).body.data as { id: number }[];
    await service.call('DELETE', `${URL_HOME}/${id}`, { token: again, body: { password: player.password } });
    const gone = await logIn(passkey);
    assert.equal(gone.status, 401);
    assert.match(gone.body.msg, /not known here/);
  });

  it('refuses what no honest browser sends, with 400, and changes nothing', async () => {
    const player = await service.registerPlayer();
    const sessionsBefore = async () =>
      Number(
        (
          await service.db
            .selectFrom('sessions')
            .select((eb) => eb.fn.countAll<number>().as('count'))
            .where('user_id', '=', await userId(player.mail))
            .executeTakeFirstOrThrow()
        ).count,
      );

    // Adding: another origin, another relying party, no user verification, a stale, a reused, another session's challenge.
    const refusedAdding: [string, (options: Awaited<ReturnType<typeof creationOptions>>) => Promise<unknown>][] = [
      ['another origin', async (options) => createPasskey(options, { ...HERE, origin: 'http://skins.test.evil.example' }).response],
      ['another port', async (options) => createPasskey(options, { ...HERE, origin: 'http://skins.test:8443' }).response],
      ['another relying party', async (options) => createPasskey(options, { ...HERE, rpId: 'evil.example' }).response],
      ['no user verification', async (options) => createPasskey(options, { ...HERE, userVerified: false }).response],
      [
        'a stale challenge',
        async (options) => {
          clock.advance(5 * 60_000 + 1);
          return createPasskey(options, HERE).response;
        },
      ],
      ['a challenge never handed out', async (options) => createPasskey({ ...options, challenge: 'bm90LWhhbmRlZC1vdXQ' }, HERE).response],
    ];
    for (const [what, responseFor] of refusedAdding) {
      const response = await responseFor(await creationOptions(player));
      const refused = await service.call('POST', URL_HOME, { token: player.token, body: { response, name: what } });
      assert.equal(refused.status, 400, `${what}: ${refused.raw.toString()}`);
      assert.deepEqual(await list(player.token), [], what);
    }
    const options = await creationOptions(player);
    const { response } = createPasskey(options, HERE);
    const other = await service.registerPlayer();
    const foreign = await service.call('POST', URL_HOME, { token: other.token, body: { response, name: 'Foreign' } });
    assert.equal(foreign.status, 400, "another session's challenge");
    assert.deepEqual(await list(other.token), []);
    assert.equal(
      (await service.call('POST', URL_HOME, { token: player.token, body: { response, name: 'Phone' } })).status,
      201,
      "another session's try neither used it up nor added anything",
    );
    assert.equal(
      (await service.call('POST', URL_HOME, { token: player.token, body: { response, name: 'Again' } })).status,
      400,
      'a challenge works once',
    );
    for (const body of [
      {},
      { name: 'x' },
      { response: { id: 'a' }, name: 'x' },
      { response: { ...response, id: 'not base64url!' }, name: 'x' },
    ]) {
      assert.equal((await service.call('POST', URL_HOME, { token: player.token, body })).status, 400, JSON.stringify(body));
    }

    // Logging in: the same, and a challenge used twice.
    const passkey = await addPasskey(player);
    const before = await sessionsBefore();
    for (const context of [
      { ...HERE, origin: 'http://evil.example' },
      { ...HERE, rpId: 'evil.example' },
      { ...HERE, userVerified: false },
    ]) {
      const refused = await logIn(passkey, context);
      assert.equal(refused.status, 400, `${JSON.stringify(context)}: ${refused.raw.toString()}`);
    }
    const { challenge_id, options: login } = await loginOptions();
    const signed = assertWith(passkey, login, HERE);
    clock.advance(5 * 60_000 + 1);
    assert.equal((await service.call('POST', '/api/auth/passkey', { body: { challenge_id, response: signed } })).status, 400, 'stale');
    const fresh = await loginOptions();
    const first = await service.call('POST', '/api/auth/passkey', {
      body: { challenge_id: fresh.challenge_id, response: assertWith(passkey, fresh.options, HERE) },
    });
    assert.equal(first.status, 200);
    const reused = await service.call('POST', '/api/auth/passkey', {
      body: { challenge_id: fresh.challenge_id, response: assertWith(passkey, fresh.options, HERE) },
    });
    assert.equal(reused.status, 400, 'reused');
    assert.equal(await sessionsBefore(), before + 1, 'only the honest login opened a session');
    assert.equal((await service.call('POST', '/api/auth/passkey', { body: { challenge_id: 'x', response: {} } })).status, 400);
  });

  it('refuses a copy whose counter went back, and audits it', async () => {
    const player = await service.registerPlayer();
    const passkey = await addPasskey(player);
    assert.equal((await logIn(passkey, { ...HERE, counter: 5 })).status, 200);
    const copy = { ...passkey };
    const refused = await logIn(copy, { ...HERE, counter: 3 });
    assert.equal(refused.status, 401, refused.raw.toString());
    assert.match(refused.body.msg, /older state/);
    assert.deepEqual(
      (await auditOf('passkey.counter_regressed', await userId(player.mail))).map(({ stored, received }) => ({ stored, received })),
      [{ stored: 5, received: 3 }],
    );
    assert.equal((await logIn(passkey, { ...HERE, counter: 6 })).status, 200, 'the original goes on');
  });

  it('counts refusals on the login limits, before checking the passkey', async () => {
    const player = await service.registerPlayer();
    const passkey = await addPasskey(player);
    const ip = randomAddress();
    for (let attempt = 0; attempt < 10; attempt++) {
      assert.equal((await logIn(passkey, { ...HERE, origin: 'http://evil.example' }, ip)).status, 400);
    }
    const limited = await logIn(passkey, HERE, ip);
    assert.equal(limited.status, 429, 'the account-and-address limit is full: not even a right passkey is checked');
    assert.equal((await logIn(passkey, HERE, randomAddress())).status, 200, 'another address still logs in');
  });

  it('is removed by an administrator for a player below them, audited', async () => {
    const player = await service.registerPlayer();
    await addPasskey(player, 'Phone');
    await addPasskey(player, 'Key');
    const ownerToken = await service.ownerToken();
    const refused = await service.call('DELETE', `/api/admin/user/${player.username}/passkeys`, { token: player.token });
    assert.equal(refused.status, 403, 'a player may not');
    const removed = await service.call('DELETE', `/api/admin/user/${player.username}/passkeys`, { token: ownerToken });
    assert.equal(removed.status, 200, removed.raw.toString());
    assert.equal(removed.body.data.removed, 2);
    assert.deepEqual(await list(player.token), []);
    const [entry] = await auditOf('passkey.remove', await userId(player.mail));
    assert.equal(entry.by, 'admin');
    assert.equal(entry.ids.length, 2);
    assert.equal(
      (await service.call('DELETE', `/api/admin/user/${OWNER.username}/passkeys`, { token: ownerToken })).status,
      403,
      "not at or above one's own level",
    );
  });

  it('allows at most 10 per account, and an account whose imported password cannot be checked sets one before removing one', async () => {
    const player = await service.registerPlayer();
    for (let index = 0; index < 10; index++) await addPasskey(player, `Key ${index}`);
    const over = await service.call('POST', `${URL_HOME}/options`, { token: player.token, body: { password: player.password } });
    assert.equal(over.status, 403);
    assert.match(over.body.msg, /at most 10/);
    const [first] = await list(player.token);
    await service.db
      .updateTable('users')
      .set({ password: taggedHash('unusable', 'unknown hash') })
      .where('mail', '=', player.mail)
      .execute();
    const needsPassword = await service.call('DELETE', `${URL_HOME}/${first!.id}`, { token: player.token, body: { password: '' } });
    assert.equal(needsPassword.status, 409);
    assert.match(needsPassword.body.msg, /Forgot password/);
    assert.equal((await list(player.token)).length, 10);
  });
});
