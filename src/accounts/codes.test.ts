// Mail codes under contract sections 15 and 15b: each mail carries a 50-bit code in two groups for typing and a link
// whose token (130 bits) confirms by itself; a typed code needs its mail address (or its continuation) and is
// limited per account and per address, counted before the check; no limit is service-wide, so codes that strangers
// create refuse nobody's right code (review M7). Codes end with a password or mail change.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { sql } from 'kysely';
import { ManualClock } from '../../test/support/clock.ts';
import { describeEachDatabase } from '../../test/support/databases.ts';
import { PUBLIC_URL, randomAddress, startService, uniqueName, type Reply, type TestService } from '../../test/support/service.ts';
import { codeIn, linkIn, mailTo, typedCodeIn } from '../../test/support/smtp.ts';

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
  /** Asks for a reset of `mail`'s password: the mail's typed code and its link's token. */
  const resetCodesOf = async (mail: string) => {
    const before = service.mailbox.messages.length;
    assert.equal((await post('/api/auth/forgetpass', { mail })).status, 200);
    const message = await service.mailbox.waitFor(
      (m) => service.mailbox.messages.indexOf(m) >= before && mailTo(mail)(m) && m.subject === RESET_SUBJECT,
    );
    return { typed: typedCodeIn(message), token: codeIn(message) };
  };

  it('mails 10 letters of the code alphabet in two groups of five, and a link whose token is another, of 26 letters', async () => {
    const mail = `${uniqueName()}@example.org`;
    await post('/api/auth/register', { mail, password: PASSWORD });
    const message = await service.mailbox.waitFor(mailTo(mail));
    const shown = /Your code: (\S+)/.exec(message.text ?? '')![1]!;
    assert.match(shown, /^[2-9A-HJ-NP-Z]{5}-[2-9A-HJ-NP-Z]{5}$/);
    const link = new URL(linkIn(message));
    assert.equal(`${link.origin}${link.pathname}`, `${PUBLIC_URL}/register/confirm`);
    const token = link.searchParams.get('code')!;
    assert.match(token, /^[2-9A-HJ-NP-Z]{26}$/, '130 bits');
    assert.ok(!token.includes(shown.replace('-', '')), 'the link does not carry the typed code');
    assert.ok(String(message.html).includes(shown), 'the HTML body shows it grouped too');
    const row = await service.db.selectFrom('mail_codes').selectAll().where('mail', '=', mail).executeTakeFirstOrThrow();
    assert.ok(row.token_hash && row.token_hash !== token && row.code_hash !== shown.replace('-', ''), 'both stored as hashes');
  });

  it('accepts a typed code with its mail address, in any case, whole or grouped; refuses other shapes', async () => {
    const player = await service.registerPlayer();
    const { typed: code } = await resetCodesOf(player.mail);
    const [first, second] = [code.slice(0, 5), code.slice(5)];
    for (const given of [
      code,
      code.toLowerCase(),
      `${first}-${second}`,
      `${first.toLowerCase()} ${second}`,
      ` ${first}-${second.toLowerCase()} `,
    ]) {
      assert.equal((await post('/api/auth/forgetpass/validate', { code: given, mail: player.mail.toUpperCase() })).status, 204, given);
    }
    for (const given of [code.slice(0, 8), `${first}--${second}`, `${first.slice(0, 4)}-${first.slice(4)}${second}`, `${code}A`]) {
      const refused = await post('/api/auth/forgetpass/validate', { code: given, mail: player.mail });
      assert.equal(refused.status, 400, given);
      assert.match(refused.body.msg, /10 letters and digits/);
    }
    const update = await post('/api/auth/forgetpass/update', {
      code: `${first} ${second}`.toLowerCase(),
      mail: player.mail,
      password: 'a new password',
    });
    assert.equal(update.status, 200);
  });

  it("a typed code needs its mail address; the link's token confirms by itself", async () => {
    const player = await service.registerPlayer();
    const other = await service.registerPlayer();
    const { typed, token } = await resetCodesOf(player.mail);
    const alone = await post('/api/auth/forgetpass/validate', { code: typed });
    assert.equal(alone.status, 400);
    assert.equal(JSON.parse(String(alone.headers['x-error-params'])).field, 'mail', 'the refusal names the missing field');
    assert.match(alone.body.msg, /mail address it was sent to/);
    const elsewhere = await post('/api/auth/forgetpass/validate', { code: typed, mail: other.mail });
    assert.equal(elsewhere.status, 400, "with another account's address the right code is wrong");
    assert.equal(elsewhere.headers['x-error-key'], 'accounts.wrongCode');
    assert.equal((await post('/api/auth/forgetpass/validate', { code: token })).status, 204, 'the token alone');
    assert.equal((await post('/api/auth/forgetpass/validate', { code: token.toLowerCase(), mail: other.mail })).status, 204);
    assert.equal((await post('/api/auth/forgetpass/validate', { code: typed, mail: player.mail })).status, 204);
    assert.equal((await post('/api/auth/forgetpass/update', { code: token, password: 'a linked new password' })).status, 200);
    assert.equal((await post('/api/auth/forgetpass/validate', { code: typed, mail: player.mail })).status, 400, 'one code: used');
    assert.equal((await post('/api/auth/login', { username: player.username, password: 'a linked new password' })).status, 200);
  });

  it('checks no more wrong codes per address than the limit, however many arrive at once; right codes are given back', async () => {
    const ip = randomAddress();
    // Every route that checks a mail code, typed with an address nobody has and as a link's token; a reset's update
    // hashes the new password first, which leaves the most time between a check of the count and the count itself.
    const mail = `${uniqueName()}@example.org`;
    const wrongToken = () => `${wrongCode()}${wrongCode()}${wrongCode()}`.slice(0, 26);
    const checks = [
      () => post('/api/auth/confirm', { code: wrongCode(), mail }, ip),
      () => post('/api/auth/forgetpass/validate', { code: wrongToken() }, ip),
      () => post('/api/auth/forgetpass/update', { code: wrongCode(), mail, password: 'a new password' }, ip),
    ];
    const wrong = await Promise.all(Array.from({ length: 30 }, (_, index) => checks[index % checks.length]!()));
    assert.deepEqual(statuses(wrong), [...times(10, 400), ...times(20, 429)]);

    const player = await service.registerPlayer();
    const { typed } = await resetCodesOf(player.mail);
    const other = randomAddress();
    for (let attempt = 0; attempt < 9; attempt += 1)
      assert.equal((await post('/api/auth/confirm', { code: wrongCode(), mail }, other)).status, 400);
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const right = await post('/api/auth/forgetpass/validate', { code: typed, mail: player.mail }, other);
      assert.equal(right.status, 204, 'a right code does not use up the count');
    }
    assert.equal((await post('/api/auth/forgetpass/validate', { code: wrongCode(), mail }, other)).status, 400, 'the tenth wrong code');
    const limited = await post('/api/auth/forgetpass/validate', { code: typed, mail: player.mail }, other);
    assert.equal(limited.status, 429, 'mail codes of every purpose count together');
  });

  it('limits wrong typed codes per account from any number of addresses, counted before the check; the link still works', async () => {
    const player = await service.registerPlayer();
    const bystander = await service.registerPlayer();
    const { typed, token } = await resetCodesOf(player.mail);
    const { typed: bystanderCode } = await resetCodesOf(bystander.mail);
    // 30 at once, each from an address of its own: only 10 are checked.
    const wrong = await Promise.all(
      Array.from({ length: 30 }, () => post('/api/auth/forgetpass/validate', { code: wrongCode(), mail: player.mail })),
    );
    assert.deepEqual(statuses(wrong), [...times(10, 400), ...times(20, 429)]);
    const refused = wrong.find((reply) => reply.status === 429)!;
    assert.match(refused.body.msg, /Too many wrong codes were typed for this account; try again in 15 minutes, or open the link/);
    assert.equal(refused.headers['retry-after'], '900');
    const typedNow = await post('/api/auth/forgetpass/validate', { code: typed, mail: player.mail });
    assert.equal(typedNow.status, 429, 'the right typed code waits too: it was counted before it was checked');
    assert.equal((await post('/api/auth/forgetpass/validate', { code: token })).status, 204, 'the link is not limited per account');
    assert.equal(
      (await post('/api/auth/forgetpass/validate', { code: bystanderCode, mail: bystander.mail })).status,
      204,
      'another account is not affected',
    );
    clock.advance(15 * 60_000);
    const { typed: later } = await resetCodesOf(player.mail);
    assert.equal((await post('/api/auth/forgetpass/validate', { code: later, mail: player.mail })).status, 204, 'after 15 minutes');
  });

  it('many live codes made by strangers refuse no right code, and leave every limit as it was (review M7)', async () => {
    // The victim registers; the attacker registers throwaway addresses through the API, and as many live
    // registration codes as 256 client addresses make in a day stand beside them.
    const victim = `${uniqueName('victim')}@example.org`;
    assert.equal((await post('/api/auth/register', { mail: victim, password: PASSWORD })).status, 200);
    const victimMail = await service.mailbox.waitFor(mailTo(victim));
    const attacker = randomAddress();
    const throwaway = Array.from({ length: 11 }, () => `${uniqueName('throwaway')}@example.net`);
    const made = [];
    for (const mail of throwaway) made.push((await post('/api/auth/register', { mail, password: PASSWORD }, attacker)).status);
    assert.deepEqual(made, [...times(10, 200), 429], 'ten mails an hour per address');
    const { id } = await service.db.selectFrom('users').select('id').where('mail', '=', throwaway[0]!).executeTakeFirstOrThrow();
    const expires = clock.now() + 24 * 3600_000;
    await sql`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 61430)
      INSERT INTO mail_codes (user_id, purpose, code_hash, mail, created_at, expires_at)
      SELECT ${id}, 'verify_mail', 'filler ' || i, ${throwaway[0]!}, ${clock.now()}, ${expires} FROM n`.execute(service.db);

    // The review's 24 wrong codes from 12 addresses, typed with throwaway addresses: refused as wrong, none spends
    // anything but the attacker's own limits.
    const wrong = [];
    for (let address = 0; address < 12; address += 1) {
      const ip = randomAddress();
      for (let attempt = 0; attempt < 2; attempt += 1) {
        wrong.push(await post('/api/auth/confirm', { code: wrongCode(), mail: throwaway[(address + attempt) % 10]! }, ip));
      }
    }
    assert.deepEqual(statuses(wrong), times(24, 400));
    // A single address still gets its ten wrong codes, whatever the number of live codes.
    const ip = randomAddress();
    const single = [];
    for (let attempt = 0; attempt < 11; attempt += 1) {
      single.push((await post('/api/auth/confirm', { code: wrongCode(), mail: throwaway[attempt % 10]! }, ip)).status);
    }
    assert.deepEqual(single, [...times(10, 400), 429]);

    // The victim's right code confirms, typed with the address from another client address, and so would the link.
    const confirmed = await post('/api/auth/confirm', { code: typedCodeIn(victimMail), mail: victim });
    assert.equal(confirmed.status, 200, confirmed.raw.toString());
    assert.equal((await post('/api/auth/login', { username: victim, password: PASSWORD })).status, 200);
  });

  it('a mail change is confirmed by the link, or by the typed code with the new address; it takes no password', async () => {
    const player = await service.registerPlayer();
    const newMail = `${uniqueName()}@example.net`;
    const moved = await service.call('PATCH', '/api/home', {
      token: player.token,
      body: { mail: newMail, current_password: player.password },
    });
    assert.equal(moved.status, 200);
    const message = await service.mailbox.waitFor(mailTo(newMail));
    assert.ok(linkIn(message).startsWith(`${PUBLIC_URL}/mail/confirm?code=`), linkIn(message));
    const withPassword = await post('/api/auth/confirm', { code: codeIn(message), password: 'a taken over password' });
    assert.equal(withPassword.status, 400);
    assert.equal(withPassword.headers['x-error-key'], 'accounts.confirmSetsNoPassword');
    assert.equal((await post('/api/auth/confirm', { code: typedCodeIn(message), mail: player.mail })).status, 400, 'the former address');
    const confirmed = await post('/api/auth/confirm', { code: typedCodeIn(message), mail: newMail });
    assert.equal(confirmed.status, 200);
    assert.deepEqual(confirmed.body.data, {}, 'a mail change logs nobody in');
    assert.match(confirmed.body.url, /\/home$/);
    assert.equal((await post('/api/auth/login', { username: newMail, password: player.password })).status, 200);
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
    const { token: beforeChange } = await resetCodesOf(player.mail);
    const changed = await service.call('PATCH', '/api/home', {
      token: player.token,
      body: { password: 'a changed password', current_password: player.password },
    });
    assert.equal(changed.status, 200);
    assert.equal((await post('/api/auth/forgetpass/validate', { code: beforeChange })).status, 400, 'dead after a password change');

    clock.advance(61_000);
    const token = (await post('/api/auth/login', { username: player.username, password: 'a changed password' })).body.data.jwt;
    const { token: toFormerMail, typed: typedToFormerMail } = await resetCodesOf(player.mail);
    const newMail = `${uniqueName()}@example.net`;
    const moved = await service.call('PATCH', '/api/home', { token, body: { mail: newMail, current_password: 'a changed password' } });
    assert.equal(moved.status, 200);
    assert.equal((await post('/api/auth/forgetpass/validate', { code: toFormerMail })).status, 400, 'dead after a mail change');
    assert.equal((await post('/api/auth/forgetpass/validate', { code: typedToFormerMail, mail: player.mail })).status, 400);
    const update = await post('/api/auth/forgetpass/update', { code: toFormerMail, password: 'taken over password' });
    assert.equal(update.status, 400);

    const confirmed = await post('/api/auth/confirm', { code: codeIn(await service.mailbox.waitFor(mailTo(newMail))) });
    assert.equal(confirmed.status, 200);
    clock.advance(61_000);
    const { token: earlier } = await resetCodesOf(newMail);
    clock.advance(61_000);
    const { token: latest } = await resetCodesOf(newMail);
    assert.equal((await post('/api/auth/forgetpass/validate', { code: earlier })).status, 400, 'a new reset code replaces the earlier');
    assert.equal((await post('/api/auth/forgetpass/update', { code: latest, password: 'a reset password' })).status, 200);
    assert.equal((await post('/api/auth/forgetpass/validate', { code: latest })).status, 400, 'used');
  });
});
