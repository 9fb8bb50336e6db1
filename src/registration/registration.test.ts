// Registration control (issue 14, item 10): open, by invitation, or closed; the owner's switch in the console that
// every instance sees at once; invitations that work once, expire and can be withdrawn; everything audited.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, it } from 'node:test';
import { ManualClock } from '../../test/support/clock.ts';
import { createTestDatabase, describeEachDatabase, type TestDatabase } from '../../test/support/databases.ts';
import { OWNER, PUBLIC_URL, randomAddress, startService, uniqueName, type TestService } from '../../test/support/service.ts';
import { codeIn, mailTo, startSmtpServer, type Mailbox } from '../../test/support/smtp.ts';
import { tokenHash } from '../http/secrets.ts';
import { REFUSALS } from './service.ts';

const PASSWORD = 'correct horse battery';
const DAY_MS = 86_400_000;

describeEachDatabase('registration control', (kind) => {
  const clock = new ManualClock();
  let service: TestService;
  let owner: string;
  let admin: { token: string; username: string };
  let moderator: { token: string; mail: string };
  before(async () => {
    service = await startService(kind, { clock, settings: { owner: OWNER, jwtTtlSeconds: 30 * 86400 } });
    owner = await service.ownerToken();
    admin = await service.registerPlayer();
    await service.db.updateTable('users').set({ perms: 2 }).where('username', '=', admin.username).execute();
    moderator = await service.registerPlayer();
    await service.db.updateTable('users').set({ perms: 1 }).where('mail', '=', moderator.mail).execute();
  });
  after(async () => service?.close());

  const register = (mail: string, invite?: string) =>
    service.call('POST', '/api/auth/register', {
      body: { mail, password: PASSWORD, ...(invite !== undefined && { invite }) },
      ip: randomAddress(),
    });
  const setMode = (mode: string | null, token = owner) => service.call('PUT', '/api/admin/registration', { token, body: { mode } });
  const accountExists = async (mail: string) =>
    (await service.db.selectFrom('users').select('id').where('mail_key', '=', mail.toLowerCase()).executeTakeFirst()) !== undefined;
  const createInvite = async (body: object = {}) => {
    const reply = await service.call('POST', '/api/admin/invites', { token: admin.token, body });
    assert.equal(reply.status, 200, reply.body?.msg);
    return reply.body.data as { link: string; invite: { id: number; status: string; note: string; expires_at: number } };
  };
  const codeOf = (link: string) => new URL(link).searchParams.get('invite')!;
  const audit = async (action: string) =>
    service.db.selectFrom('audit_log').selectAll().where('action', '=', action).orderBy('id', 'desc').execute();
  const inviteRow = (id: number) => service.db.selectFrom('invites').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  it('is open by default: anyone registers, and the pages read the mode', async () => {
    const reply = await service.call('GET', '/api/auth/registration');
    assert.equal(reply.status, 200);
    assert.deepEqual(reply.body.data, { mode: 'open', invite: null });
    const state = await service.call('GET', '/api/admin/registration', { token: moderator.token });
    assert.deepEqual(state.body.data, { mode: 'open', setting: 'open', chosen: null, changed_at: null, changed_by: null });
    const mail = `${uniqueName()}@example.org`;
    assert.equal((await register(mail)).status, 200);
    // Its mail arrives before the next test counts the mailbox.
    await service.mailbox.waitFor(mailTo(mail));
  });

  it('switches only by an owner, for everyone at once, audited; closed refuses new accounts and creates nothing', async () => {
    const refused = await setMode('closed', admin.token);
    assert.equal(refused.status, 403, 'an admin does not change site-wide things');
    assert.equal((await setMode('sometimes')).status, 400);
    assert.equal((await service.call('GET', '/api/auth/registration')).body.data.mode, 'open', 'refusals change nothing');

    const set = await setMode('closed');
    assert.equal(set.status, 200);
    assert.equal(set.body.data.mode, 'closed');
    assert.equal(set.body.data.chosen, 'closed');
    assert.equal(set.body.data.changed_by, OWNER.username);
    const [entry] = await audit('registration.mode');
    assert.equal(entry!.iss, OWNER.username);
    assert.deepEqual(JSON.parse(entry!.details!), { mode: 'closed', previous: 'open', source: 'console' });

    const mail = `${uniqueName()}@example.org`;
    const mailsBefore = service.mailbox.messages.length;
    const closed = await register(mail);
    assert.equal(closed.status, 403);
    assert.equal(closed.body.msg, REFUSALS.closed);
    assert.equal(closed.body.error, true);
    const { link } = await createInvite();
    assert.equal((await register(mail, codeOf(link))).status, 403, 'an invitation does not open a closed site');
    assert.equal(await accountExists(mail), false);
    assert.equal(service.mailbox.messages.length, mailsBefore, 'no mail');
    assert.equal((await service.call('GET', '/api/auth/registration')).body.data.mode, 'closed');

    const back = await setMode(null);
    assert.equal(back.status, 200);
    assert.deepEqual(
      { mode: back.body.data.mode, chosen: back.body.data.chosen },
      { mode: 'open', chosen: null },
      'follows the setting again',
    );
    assert.deepEqual(JSON.parse((await audit('registration.mode'))[0]!.details!), { mode: 'open', previous: 'closed', source: 'setting' });
  });

  it('by invitation: refuses without one, or with a malformed or unknown one, and creates nothing', async () => {
    assert.equal((await setMode('invite')).status, 200);
    const mail = `${uniqueName()}@example.org`;
    const without = await register(mail);
    assert.equal(without.status, 403);
    assert.equal(without.body.msg, REFUSALS.inviteOnly);
    const malformed = await register(mail, 'abc');
    assert.equal(malformed.status, 400);
    assert.equal(malformed.body.msg, REFUSALS.malformed);
    const unknown = await register(mail, 'A'.repeat(24));
    assert.equal(unknown.status, 403);
    assert.equal(unknown.body.msg, REFUSALS.unknown);
    assert.equal(await accountExists(mail), false);
    assert.deepEqual((await service.call('GET', '/api/auth/registration', {})).body.data, { mode: 'invite', invite: null });
  });

  it('counts every look at an invitation per client address before it is checked; usable ones are given back', async () => {
    await setMode('invite');
    const lookUp = (invite: string, ip: string) => service.call('GET', `/api/auth/registration?invite=${invite}`, { ip });
    const guesser = randomAddress();
    const guesses = await Promise.all(Array.from({ length: 25 }, () => lookUp(randomBytes(18).toString('base64url'), guesser)));
    assert.deepEqual(guesses.map((reply) => reply.status).sort(), [...Array(10).fill(200), ...Array(15).fill(429)]);
    assert.ok(guesses.filter((reply) => reply.status === 200).every((reply) => reply.body.data.invite.usable === false));
    const refused = guesses.find((reply) => reply.status === 429)!;
    assert.match(refused.body.msg, /invitation/);
    assert.ok(Number(refused.headers['retry-after']) > 0);
    const stillCounted = await service.call('POST', '/api/auth/register', {
      body: { mail: `${uniqueName()}@example.org`, password: PASSWORD, invite: 'B'.repeat(24) },
      ip: guesser,
    });
    assert.equal(stillCounted.status, 429, 'registering with an invitation is a look at it too');

    const invited = randomAddress();
    const good = codeOf((await createInvite()).link);
    for (let look = 0; look < 12; look += 1) assert.equal((await lookUp(good, invited)).body.data.invite.usable, true);
    for (let guess = 0; guess < 9; guess += 1) {
      const mail = `${uniqueName()}@example.org`;
      const wrong = await service.call('POST', '/api/auth/register', {
        body: { mail, password: PASSWORD, invite: 'C'.repeat(24) },
        ip: invited,
      });
      assert.equal(wrong.status, 403);
    }
    const mail = `${uniqueName()}@example.org`;
    const registered = await service.call('POST', '/api/auth/register', { body: { mail, password: PASSWORD, invite: good }, ip: invited });
    assert.equal(registered.status, 200, 'nine wrong and any number of right ones fit in the limit');
    await service.mailbox.waitFor(mailTo(mail));
    assert.equal((await lookUp('D'.repeat(24), invited)).status, 200, 'the tenth wrong one');
    assert.equal((await lookUp(good, invited)).status, 429);
    assert.equal(
      (await service.call('POST', '/api/auth/confirm', { body: { code: 'AAAAA-AAAAA' }, ip: invited })).status,
      400,
      'mail codes count apart',
    );
  });

  it('an admin creates an invitation: a link shown once, stored as a hash; it makes one account, then refuses', async () => {
    await setMode('invite');
    const created = await createInvite({ note: 'for Alex', days: 3 });
    assert.match(created.link, new RegExp(`^${PUBLIC_URL}/register\\?invite=[A-Za-z0-9_-]{24}$`));
    assert.equal(created.invite.status, 'usable');
    assert.equal(created.invite.note, 'for Alex');
    assert.equal(created.invite.expires_at, Math.floor((clock.now() + 3 * DAY_MS) / 1000));
    const code = codeOf(created.link);
    const row = await inviteRow(created.invite.id);
    assert.equal(row.code_hash, tokenHash(code));
    assert.ok(!JSON.stringify(await service.db.selectFrom('invites').selectAll().execute()).includes(code), 'the code is not stored');
    const [made] = await audit('invite.create');
    assert.equal(made!.iss, admin.username);
    assert.ok(!(made!.details ?? '').includes(code), 'nor written to the audit log');
    assert.equal((await service.call('POST', '/api/admin/invites', { token: moderator.token, body: {} })).status, 403);
    assert.equal((await service.call('POST', '/api/admin/invites', { token: admin.token, body: { days: 0 } })).status, 400);

    const page = await service.call('GET', `/api/auth/registration?invite=${code}`);
    assert.deepEqual(page.body.data, { mode: 'invite', invite: { usable: true, problem: null } });

    const mail = `${uniqueName()}@example.org`;
    const registered = await register(mail, code);
    assert.equal(registered.status, 200, registered.body.msg);
    const confirmCode = codeIn(await service.mailbox.waitFor(mailTo(mail)));
    assert.equal((await service.call('POST', '/api/auth/confirm', { body: { code: confirmCode } })).status, 200);
    const user = await service.db.selectFrom('users').select('id').where('mail_key', '=', mail).executeTakeFirstOrThrow();
    const used = await inviteRow(created.invite.id);
    assert.equal(used.used_by, user.id);
    const [use] = await audit('invite.use');
    assert.equal(use!.target_id, user.id);
    assert.equal(use!.iss, mail);
    assert.deepEqual(JSON.parse(use!.details!).invite, created.invite.id);

    const again = await register(`${uniqueName()}@example.org`, code);
    assert.equal(again.status, 403);
    assert.equal(again.body.msg, REFUSALS.used);
    assert.deepEqual((await service.call('GET', `/api/auth/registration?invite=${code}`)).body.data.invite, {
      usable: false,
      problem: REFUSALS.used,
    });

    const list = await service.call('GET', '/api/admin/invites', { token: moderator.token });
    assert.equal(list.status, 200);
    const listed = list.body.data.find((invite: { id: number }) => invite.id === created.invite.id);
    assert.equal(listed.status, 'used');
    assert.deepEqual(listed.used_by, { id: user.id, name: mail });
    assert.equal(listed.created_by, admin.username);
    assert.ok(Number(list.headers['x-total-count']) >= 1);
  });

  it('registering an unconfirmed mail again takes no second invitation', async () => {
    await setMode('invite');
    const first = codeOf((await createInvite()).link);
    const second = await createInvite();
    const mail = `${uniqueName()}@example.org`;
    assert.equal((await register(mail, first)).status, 200);
    clock.advance(61_000); // one mail a minute per recipient
    const resent = await register(mail);
    assert.equal(resent.status, 200, `send the mail again: ${resent.body.msg}`);
    clock.advance(61_000);
    assert.equal((await register(mail, codeOf(second.link))).status, 200);
    assert.equal((await inviteRow(second.invite.id)).used_at, null, 'the second invitation stays usable');
    const users = await service.db.selectFrom('users').select('id').where('mail_key', '=', mail).execute();
    assert.equal(users.length, 1);
  });

  it('expires, and a withdrawn invitation refuses; a used one cannot be withdrawn', async () => {
    await setMode('invite');
    const short = await createInvite({ days: 1 });
    clock.advance(DAY_MS + 1000);
    const expired = await register(`${uniqueName()}@example.org`, codeOf(short.link));
    assert.equal(expired.status, 403);
    assert.equal(expired.body.msg, REFUSALS.expired);

    const withdrawn = await createInvite();
    assert.equal((await service.call('DELETE', `/api/admin/invites/${withdrawn.invite.id}`, { token: moderator.token })).status, 403);
    const revoked = await service.call('DELETE', `/api/admin/invites/${withdrawn.invite.id}`, { token: admin.token });
    assert.equal(revoked.status, 200);
    assert.equal(revoked.body.data.status, 'revoked');
    const [entry] = await audit('invite.revoke');
    assert.deepEqual(JSON.parse(entry!.details!), { invite: withdrawn.invite.id });
    const refused = await register(`${uniqueName()}@example.org`, codeOf(withdrawn.link));
    assert.equal(refused.status, 403);
    assert.equal(refused.body.msg, REFUSALS.revoked);

    const used = await createInvite();
    assert.equal((await register(`${uniqueName()}@example.org`, codeOf(used.link))).status, 200);
    const late = await service.call('DELETE', `/api/admin/invites/${used.invite.id}`, { token: admin.token });
    assert.equal(late.status, 409);
    assert.equal((await service.call('DELETE', '/api/admin/invites/2147483647', { token: admin.token })).status, 404);
    assert.equal((await service.call('DELETE', '/api/admin/invites/2147483648', { token: admin.token })).status, 400);
    assert.equal((await service.call('DELETE', '/api/admin/invites/x', { token: admin.token })).status, 400);
  });

  it('one invitation sent by two registrations at once makes one account', async () => {
    await setMode('invite');
    const code = codeOf((await createInvite()).link);
    const mails = [`${uniqueName()}@example.org`, `${uniqueName()}@example.org`];
    const replies = await Promise.all(mails.map((mail) => register(mail, code)));
    assert.deepEqual(replies.map((reply) => reply.status).sort(), [200, 403]);
    const made = await Promise.all(mails.map(accountExists));
    assert.deepEqual(made.filter(Boolean).length, 1);
  });

  it('open: a usable invitation sent along is taken, an unusable one is ignored', async () => {
    await setMode('open');
    const created = await createInvite();
    assert.equal((await register(`${uniqueName()}@example.org`, codeOf(created.link))).status, 200);
    assert.notEqual((await inviteRow(created.invite.id)).used_at, null);
    assert.equal((await register(`${uniqueName()}@example.org`, codeOf(created.link))).status, 200, 'open to anyone anyway');
    assert.equal((await register(`${uniqueName()}@example.org`, 'not-a-code')).status, 200);
  });
});

describeEachDatabase('registration set by REGISTRATION, across instances', (kind) => {
  let database: TestDatabase;
  let mailbox: Mailbox;
  let first: TestService;
  let second: TestService;
  before(async () => {
    database = await createTestDatabase(kind);
    mailbox = await startSmtpServer();
    const settings = { owner: OWNER, registration: 'closed' as const };
    first = await startService(kind, { database, mailbox, settings });
    second = await startService(kind, { database, mailbox, settings });
  });
  after(async () => {
    await first?.close();
    await second?.close();
    await mailbox?.close();
    await database?.drop();
  });

  it('the owner of OWNER_* exists although registration is closed, and a change on one instance holds on the other at once', async () => {
    const owner = await first.ownerToken();
    const state = await second.call('GET', '/api/admin/registration', { token: owner });
    assert.deepEqual(state.body.data, { mode: 'closed', setting: 'closed', chosen: null, changed_at: null, changed_by: null });
    const mail = `${uniqueName()}@example.org`;
    const body = { mail, password: PASSWORD };
    assert.equal((await second.call('POST', '/api/auth/register', { body })).status, 403);

    assert.equal((await first.call('PUT', '/api/admin/registration', { token: owner, body: { mode: 'open' } })).status, 200);
    assert.equal((await second.call('GET', '/api/auth/registration')).body.data.mode, 'open');
    assert.equal((await second.call('POST', '/api/auth/register', { body })).status, 200);

    assert.equal((await second.call('PUT', '/api/admin/registration', { token: owner, body: { mode: 'invite' } })).status, 200);
    const refused = await first.call('POST', '/api/auth/register', { body: { mail: `${uniqueName()}@example.org`, password: PASSWORD } });
    assert.equal(refused.status, 403);
    assert.equal(refused.body.msg, REFUSALS.inviteOnly);
  });
});
