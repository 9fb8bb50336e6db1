// Pending passwords (contract section 15b, closing the first review's L2), through the API on SQLite and PostgreSQL:
// only the first registration of an unconfirmed address keeps the password of step 1; a later registration's code
// confirms only with a password chosen then, as does any code confirmed with another browser's continuation; so a
// stranger who registers someone's address, before or after its owner, never gets a password the owner confirms
// unawares. A single registration confirmed by its code alone keeps its password (the way scripts and tests register).
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { ManualClock } from '../../test/support/clock.ts';
import { describeEachDatabase } from '../../test/support/databases.ts';
import { randomAddress, startService, uniqueName, type TestService } from '../../test/support/service.ts';
import { codeIn, mailTo, typedCodeIn } from '../../test/support/smtp.ts';

const VICTIM_PASSWORD = 'victim horse battery';
const ATTACKER_PASSWORD = 'attacker horse battery';
const CHOSEN_PASSWORD = 'chosen at confirmation';

describeEachDatabase('pending passwords', (kind) => {
  const clock = new ManualClock();
  let service: TestService;
  before(async () => {
    service = await startService(kind, { clock });
  });
  after(async () => service?.close());

  const post = (url: string, body: unknown, ip = randomAddress()) => service.call('POST', url, { body, ip });
  const login = (mail: string, password: string) => post('/api/auth/login', { username: mail, password });
  const mailsTo = (mail: string) => service.mailbox.messages.filter(mailTo(mail));
  /** Registers `mail` as a browser would: its continuation, and the mail it had sent (token and typed code). */
  const register = async (mail: string, password: string) => {
    const seen = mailsTo(mail).length;
    const registered = await post('/api/auth/register', { mail, password });
    assert.equal(registered.status, 200, registered.raw.toString());
    const message = await service.mailbox.waitFor((candidate) => mailTo(mail)(candidate) && mailsTo(mail).indexOf(candidate) >= seen);
    return { continuation: registered.body.data.continuation as string, token: codeIn(message), typed: typedCodeIn(message) };
  };
  const passwordRefusal = (reply: { status: number; headers: Record<string, unknown> }) => {
    assert.equal(reply.status, 400);
    assert.equal(reply.headers['x-error-key'], 'accounts.confirmPasswordNeeded');
    assert.equal(JSON.parse(String(reply.headers['x-error-params'])).field, 'password', 'the refusal names the field');
  };

  it("the review's sequence: the victim confirms with the newest mail, the attacker's password never logs in", async () => {
    const mail = `${uniqueName('victim')}@example.org`;
    const victim = await register(mail, VICTIM_PASSWORD);
    clock.advance(62_000);
    const attacker = await register(mail, ATTACKER_PASSWORD);
    assert.equal((await login(mail, ATTACKER_PASSWORD)).status, 401, 'registering again stored no password');

    // The newest mail is the attacker's registration: its link or its typed code, in the victim's own tab, asks for
    // a password, and so does its link alone (another device). Nothing is used up by asking.
    passwordRefusal(await post('/api/auth/confirm', { code: attacker.token, continuation: victim.continuation }));
    passwordRefusal(await post('/api/auth/confirm', { code: attacker.typed, continuation: victim.continuation, mail }));
    passwordRefusal(await post('/api/auth/confirm', { code: attacker.token }));
    const confirmed = await post('/api/auth/confirm', {
      code: attacker.token,
      continuation: victim.continuation,
      password: CHOSEN_PASSWORD,
    });
    assert.equal(confirmed.status, 200, confirmed.raw.toString());
    assert.equal(typeof confirmed.body.data.jwt, 'string', 'the victim chose the password: logged in');

    assert.equal((await login(mail, ATTACKER_PASSWORD)).status, 401);
    assert.equal((await login(mail, VICTIM_PASSWORD)).status, 401, 'the password chosen now is the one');
    assert.equal((await login(mail, CHOSEN_PASSWORD)).status, 200);
    assert.equal((await post('/api/auth/confirm', { code: victim.token })).status, 400, 'the other codes ended');
    // The attacker's browser learns only that the address was confirmed, and can neither send a mail nor log in.
    const state = await post('/api/auth/confirm/status', { continuation: attacker.continuation });
    assert.deepEqual(state.body.data, { state: 'confirmed' });
    assert.equal((await post('/api/auth/confirm/resend', { continuation: attacker.continuation })).status, 409);
  });

  it("the reverse order: the attacker registers first; neither the victim's nor the attacker's mail confirms the attacker's password", async () => {
    const mail = `${uniqueName('victim')}@example.org`;
    const attacker = await register(mail, ATTACKER_PASSWORD);
    clock.advance(62_000);
    const victim = await register(mail, VICTIM_PASSWORD);

    // The victim's own (newest) mail carries no password; the attacker's mail, in the victim's tab, carries a password
    // that tab never proved: both ask.
    passwordRefusal(await post('/api/auth/confirm', { code: victim.token, continuation: victim.continuation }));
    passwordRefusal(await post('/api/auth/confirm', { code: victim.typed, continuation: victim.continuation }));
    passwordRefusal(await post('/api/auth/confirm', { code: attacker.token, continuation: victim.continuation }));
    passwordRefusal(await post('/api/auth/confirm', { code: attacker.typed, continuation: victim.continuation, mail }));
    const confirmed = await post('/api/auth/confirm', { code: victim.typed, continuation: victim.continuation, password: CHOSEN_PASSWORD });
    assert.equal(confirmed.status, 200, confirmed.raw.toString());
    assert.equal(typeof confirmed.body.data.jwt, 'string');

    assert.equal((await login(mail, ATTACKER_PASSWORD)).status, 401, "the attacker's password never logs in");
    assert.equal((await login(mail, CHOSEN_PASSWORD)).status, 200);
    assert.equal((await post('/api/auth/confirm', { code: attacker.token })).status, 400, "the attacker's code ended");
  });

  it("the first registration's code keeps its password: alone (another device, scripts), typed with the address, or in its browser", async () => {
    // The code alone, no continuation: the password of step 1 (the way test/support/service.ts registers players).
    const single = `${uniqueName('single')}@example.org`;
    const alone = await register(single, VICTIM_PASSWORD);
    const confirmed = await post('/api/auth/confirm', { code: alone.token });
    assert.equal(confirmed.status, 200, confirmed.raw.toString());
    assert.deepEqual(confirmed.body.data, {}, 'logs nobody in');
    assert.equal((await login(single, VICTIM_PASSWORD)).status, 200);

    const typed = `${uniqueName('typed')}@example.org`;
    const byHand = await register(typed, VICTIM_PASSWORD);
    assert.equal((await post('/api/auth/confirm', { code: byHand.typed, mail: typed })).status, 200);
    assert.equal((await login(typed, VICTIM_PASSWORD)).status, 200);

    // Its own browser, after a stranger's registration: the first mail still confirms with step 1's password and logs
    // that browser in; a mail sent again from it carries the same password.
    const owner = `${uniqueName('owner')}@example.org`;
    const first = await register(owner, VICTIM_PASSWORD);
    clock.advance(62_000);
    await register(owner, ATTACKER_PASSWORD);
    clock.advance(62_000);
    const again = await post('/api/auth/confirm/resend', { continuation: first.continuation });
    assert.equal(again.status, 200);
    const resent = codeIn(mailsTo(owner).at(-1)!);
    const kept = await post('/api/auth/confirm', { code: first.typed, continuation: again.body.data.continuation, mail: owner });
    assert.equal(kept.status, 200, kept.raw.toString());
    assert.equal(typeof kept.body.data.jwt, 'string', 'the continuation of a code with the same password proves it');
    assert.equal((await login(owner, VICTIM_PASSWORD)).status, 200);
    assert.equal((await login(owner, ATTACKER_PASSWORD)).status, 401);
    assert.equal((await post('/api/auth/confirm', { code: resent })).status, 400, 'ended with the confirmation');
  });

  it("a password chosen at confirmation follows section 2's rules; a refusal spends neither the code nor a wrong guess", async () => {
    const mail = `${uniqueName('rules')}@example.org`;
    await register(mail, VICTIM_PASSWORD);
    clock.advance(62_000);
    const later = await register(mail, ATTACKER_PASSWORD);
    const ip = randomAddress();
    const refusals: [string, string][] = [
      ['short', 'accounts.passwordTooShort'],
      ['qwerty123', 'accounts.passwordCommon'],
      [mail.toUpperCase(), 'accounts.passwordIsOwnIdentifier'],
    ];
    for (let round = 0; round < 4; round += 1) {
      for (const [password, key] of refusals) {
        const refused = await post('/api/auth/confirm', { code: later.typed, mail, password }, ip);
        assert.equal(refused.status, 400, password);
        assert.equal(refused.headers['x-error-key'], key);
        assert.equal(JSON.parse(String(refused.headers['x-error-params'])).field, 'password');
      }
    }
    // Twelve refusals from one address, none counted as a wrong code: the code still confirms from there.
    const confirmed = await post('/api/auth/confirm', { code: later.typed, mail, password: CHOSEN_PASSWORD }, ip);
    assert.equal(confirmed.status, 200, confirmed.raw.toString());
    assert.equal((await login(mail, CHOSEN_PASSWORD)).status, 200);
  });

  it('tells the browser that registered when the address was confirmed elsewhere', async () => {
    const mail = `${uniqueName('waiting')}@example.org`;
    const tab = await register(mail, VICTIM_PASSWORD);
    const state = async (continuation: string) => (await post('/api/auth/confirm/status', { continuation })).body.data.state;
    assert.equal(await state(tab.continuation), 'waiting');
    // Another device opens the link; the page there asks for the password and confirms.
    assert.equal((await post('/api/auth/confirm', { code: tab.token, password: CHOSEN_PASSWORD })).status, 200);
    assert.equal(await state(tab.continuation), 'confirmed');
    const forged = `${tab.continuation.slice(0, -1)}${tab.continuation.endsWith('A') ? 'B' : 'A'}`;
    assert.equal(await state(forged), 'ended');
    clock.advance(61 * 60_000);
    assert.equal(await state(tab.continuation), 'ended', 'after its hour');
  });
});
