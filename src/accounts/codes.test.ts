// Mail codes under contract section 15: 50 bits shown in two groups, counted before they are checked (per client
// address and service-wide), registration codes carrying their own password, and codes ending with a password or
// mail change.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { sql } from 'kysely';
import { ManualClock } from '../../test/support/clock.ts';
import { describeEachDatabase } from '../../test/support/databases.ts';
import { PUBLIC_URL, randomAddress, startService, uniqueName, type Reply, type TestService } from '../../test/support/service.ts';
import { codeIn, linkIn, mailTo } from '../../test/support/smtp.ts';

const PASSWORD = 'correct horse battery';
const ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';
const RESET_SUBJECT = 'Reset your password';

/** A code of the right shape that matches nothing (one in 2^50 that it does). */
const wrongCode = () => Array.from({ length: 10 }, () => ALPHABET[Math.floor(Math.random() * ALPHABET.length)]).join('');
const statuses = (replies: Reply[]) => replies.map((reply) => reply.status).sort();
const times = (count: number, status: number) => Array<number>(count).fill(status);

describeEachDatabase('mail codes', (kind) => {
  const clock = new ManualClock();
  let service: TestService;
  before(async () => {
    service = await startService(kind, { clock });
  });
  after(async () => service?.close());

  const post = (url: string, body: unknown, ip = randomAddress()) => service.call('POST', url, { body, ip });
  const resetCodeOf = async (mail: string) => {
    const before = service.mailbox.messages.length;
    assert.equal((await post('/api/auth/forgetpass', { mail })).status, 200);
    return codeIn(
      await service.mailbox.waitFor((m) => service.mailbox.messages.indexOf(m) >= before && mailTo(mail)(m) && m.subject === RESET_SUBJECT),
    );
  };

  it('mails 10 letters of the code alphabet in two groups of five; the link carries the code whole', async () => {
    const mail = `${uniqueName()}@example.org`;
    await post('/api/auth/register', { mail, password: PASSWORD });
    const message = await service.mailbox.waitFor(mailTo(mail));
    const shown = /Your code: (\S+)/.exec(message.text ?? '')![1]!;
    assert.match(shown, /^[2-9A-HJ-NP-Z]{5}-[2-9A-HJ-NP-Z]{5}$/);
    const code = shown.replace('-', '');
    assert.equal(linkIn(message), `${PUBLIC_URL}/register/confirm?code=${code}`);
    assert.ok(String(message.html).includes(shown), 'the HTML body shows it grouped too');
  });

  it('accepts a code in any case, whole or with a space or a dash between the groups; refuses other shapes', async () => {
    const player = await service.registerPlayer();
    const code = await resetCodeOf(player.mail);
    const [first, second] = [code.slice(0, 5), code.slice(5)];
    for (const given of [
      code,
      code.toLowerCase(),
      `${first}-${second}`,
      `${first.toLowerCase()} ${second}`,
      ` ${first}-${second.toLowerCase()} `,
    ]) {
      assert.equal((await post('/api/auth/forgetpass/validate', { code: given })).status, 204, given);
    }
    for (const given of [code.slice(0, 8), `${first}--${second}`, `${first.slice(0, 4)}-${first.slice(4)}${second}`, `${code}A`]) {
      const refused = await post('/api/auth/forgetpass/validate', { code: given });
      assert.equal(refused.status, 400, given);
      assert.match(refused.body.msg, /10 letters and digits/);
    }
    assert.equal(
      (await post('/api/auth/forgetpass/update', { code: `${first} ${second}`.toLowerCase(), password: 'a new password' })).status,
      200,
    );
  });

  it('checks no more wrong codes per address than the limit, however many arrive at once; right codes are given back', async () => {
    const ip = randomAddress();
    // Every route that checks a mail code; a reset's update hashes the new password first, which leaves the most time
    // between a check of the count and the count itself.
    const checks = [
      () => post('/api/auth/confirm', { code: wrongCode() }, ip),
      () => post('/api/auth/forgetpass/validate', { code: wrongCode() }, ip),
      () => post('/api/auth/forgetpass/update', { code: wrongCode(), password: 'a new password' }, ip),
    ];
    const wrong = await Promise.all(Array.from({ length: 30 }, (_, index) => checks[index % checks.length]!()));
    assert.deepEqual(statuses(wrong), [...times(10, 400), ...times(20, 429)]);

    const player = await service.registerPlayer();
    const code = await resetCodeOf(player.mail);
    const other = randomAddress();
    for (let attempt = 0; attempt < 9; attempt += 1)
      assert.equal((await post('/api/auth/confirm', { code: wrongCode() }, other)).status, 400);
    for (let attempt = 0; attempt < 5; attempt += 1) {
      assert.equal((await post('/api/auth/forgetpass/validate', { code }, other)).status, 204, 'a right code does not use up the count');
    }
    assert.equal((await post('/api/auth/forgetpass/validate', { code: wrongCode() }, other)).status, 400, 'the tenth wrong code');
    assert.equal((await post('/api/auth/forgetpass/validate', { code }, other)).status, 429, 'mail codes of every purpose count together');
  });

  it('a code sets the password of the registration that made it: registering again takes nothing over', async () => {
    const registerTwice = async () => {
      const mail = `${uniqueName()}@example.org`;
      await post('/api/auth/register', { mail, password: PASSWORD });
      const first = codeIn(await service.mailbox.waitFor(mailTo(mail)));
      clock.advance(61_000); // one mail per address per minute
      assert.equal((await post('/api/auth/register', { mail, password: 'a stranger password' })).status, 200);
      const second = codeIn(await service.mailbox.waitFor((m) => mailTo(mail)(m) && codeIn(m) !== first));
      return { mail, first, second };
    };
    const login = (mail: string, password: string) => post('/api/auth/login', { username: mail, password });

    const victim = await registerTwice();
    assert.equal((await login(victim.mail, 'a stranger password')).status, 401, 'registering again replaced no password');
    assert.equal((await post('/api/auth/confirm', { code: victim.first })).status, 200);
    assert.equal((await login(victim.mail, PASSWORD)).status, 200);
    assert.equal((await login(victim.mail, 'a stranger password')).status, 401);
    assert.equal((await post('/api/auth/confirm', { code: victim.second })).status, 400, 'the later code ended with the confirmation');
    assert.equal((await login(victim.mail, PASSWORD)).status, 200);

    const changedMind = await registerTwice();
    assert.equal((await post('/api/auth/confirm', { code: changedMind.second })).status, 200);
    assert.equal((await login(changedMind.mail, 'a stranger password')).status, 200);
    assert.equal((await login(changedMind.mail, PASSWORD)).status, 401);
    assert.equal((await post('/api/auth/confirm', { code: changedMind.first })).status, 400);
  });

  it('answers 409 for a taken mail at most 10 times an hour per address, counted before the lookup', async () => {
    const player = await service.registerPlayer();
    const ip = randomAddress();
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const mail = `${uniqueName()}@example.org`;
      assert.equal((await post('/api/auth/register', { mail, password: PASSWORD }, ip)).status, 200, 'a free mail does not count');
    }
    const replies = await Promise.all(
      Array.from({ length: 25 }, () => post('/api/auth/register', { mail: player.mail, password: PASSWORD }, ip)),
    );
    assert.deepEqual(statuses(replies), [...times(10, 409), ...times(15, 429)]);
    assert.ok(replies.every((reply) => reply.status !== 429 || Number(reply.headers['retry-after']) > 0));
    assert.equal((await post('/api/auth/register', { mail: player.mail, password: PASSWORD })).status, 409, 'per address');
    clock.advance(3600_000);
    assert.equal((await post('/api/auth/register', { mail: player.mail, password: PASSWORD }, ip)).status, 409, 'for an hour');
  });

  it('ends outstanding codes when the password changes or the mail changes', async () => {
    const player = await service.registerPlayer();
    const beforeChange = await resetCodeOf(player.mail);
    const changed = await service.call('PATCH', '/api/home', {
      token: player.token,
      body: { password: 'a changed password', current_password: player.password },
    });
    assert.equal(changed.status, 200);
    assert.equal((await post('/api/auth/forgetpass/validate', { code: beforeChange })).status, 400, 'dead after a password change');

    clock.advance(61_000);
    const token = (await post('/api/auth/login', { username: player.username, password: 'a changed password' })).body.data.jwt;
    const toFormerMail = await resetCodeOf(player.mail);
    const newMail = `${uniqueName()}@example.net`;
    const moved = await service.call('PATCH', '/api/home', { token, body: { mail: newMail, current_password: 'a changed password' } });
    assert.equal(moved.status, 200);
    assert.equal((await post('/api/auth/forgetpass/validate', { code: toFormerMail })).status, 400, 'dead after a mail change');
    const update = await post('/api/auth/forgetpass/update', { code: toFormerMail, password: 'taken over password' });
    assert.equal(update.status, 400);

    const confirmed = await post('/api/auth/confirm', { code: codeIn(await service.mailbox.waitFor(mailTo(newMail))) });
    assert.equal(confirmed.status, 200);
    clock.advance(61_000);
    const earlier = await resetCodeOf(newMail);
    clock.advance(61_000);
    const latest = await resetCodeOf(newMail);
    assert.equal((await post('/api/auth/forgetpass/validate', { code: earlier })).status, 400, 'a new reset code replaces the earlier');
    assert.equal((await post('/api/auth/forgetpass/update', { code: latest, password: 'a reset password' })).status, 200);
    assert.equal((await post('/api/auth/forgetpass/validate', { code: latest })).status, 400, 'used');
  });
});

describeEachDatabase('service-wide budget of wrong codes', (kind) => {
  const clock = new ManualClock();
  let service: TestService;
  before(async () => {
    service = await startService(kind, { clock });
  });
  after(async () => service?.close());

  it('refuses wrong codes from any number of addresses past floor(1,000,000 / live codes) an hour, per purpose', async (t) => {
    const mail = `${uniqueName()}@example.org`;
    assert.equal(
      (await service.call('POST', '/api/auth/register', { body: { mail, password: PASSWORD }, ip: randomAddress() })).status,
      200,
    );
    const code = codeIn(await service.mailbox.waitFor(mailTo(mail)));
    // As many live registration codes as a large site under a registration flood would hold.
    const { id } = await service.db.selectFrom('users').select('id').where('mail', '=', mail).executeTakeFirstOrThrow();
    const expires = clock.now() + 24 * 3600_000;
    await sql`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 125000)
      INSERT INTO mail_codes (user_id, purpose, code_hash, mail, created_at, expires_at)
      SELECT ${id}, 'verify_mail', 'filler ' || i, ${mail}, ${clock.now()}, ${expires} FROM n`.execute(service.db);
    const live = 125_001;
    const budget = Math.floor(1_000_000 / live);
    assert.equal(budget, 7);

    const started = performance.now();
    const wrong = await Promise.all(
      Array.from({ length: 30 }, () => service.call('POST', '/api/auth/confirm', { body: { code: wrongCode() }, ip: randomAddress() })),
    );
    const elapsed = performance.now() - started;
    assert.deepEqual(statuses(wrong), [...times(budget, 400), ...times(30 - budget, 429)]);
    const refused = wrong.find((reply) => reply.status === 429)!;
    assert.match(refused.body.msg, /Too many wrong codes were tried on this site/);
    assert.ok(Number(refused.headers['retry-after']) > 0 && Number(refused.headers['retry-after']) <= 3600);
    t.diagnostic(`${kind}: 30 checks with ${live} live codes took ${elapsed.toFixed(0)} ms`);

    const blocked = await service.call('POST', '/api/auth/confirm', { body: { code }, ip: randomAddress() });
    assert.equal(blocked.status, 429, 'the price: a right code waits for the window too');
    assert.equal(
      (await service.call('POST', '/api/auth/forgetpass/validate', { body: { code: wrongCode() }, ip: randomAddress() })).status,
      400,
      'reset codes have a budget of their own',
    );

    clock.advance(3600_000);
    assert.equal((await service.call('POST', '/api/auth/confirm', { body: { code }, ip: randomAddress() })).status, 200, 'the next hour');
  });
});
