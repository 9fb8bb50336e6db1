// OWNER_* in .env for an address that already has an account (issue 38, 1): the natural order is to try the site,
// register, and only then read the README. The account holding OWNER_MAIL becomes the owner; a confirmed one keeps
// its password, one whose mail was never confirmed (someone else may have registered the owner's address) does not.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { describeEachDatabase } from '../../test/support/databases.ts';
import { codeIn, mailTo } from '../../test/support/smtp.ts';
import { randomAddress, startService, uniqueName, type TestService } from '../../test/support/service.ts';

describeEachDatabase('the owner from the settings', (kind) => {
  let service: TestService;
  const logged: string[] = [];
  /** The log lines (their msg) since the last restart. */
  const messages = () => logged.map((line) => (JSON.parse(line) as { msg: string }).msg);
  before(async () => {
    service = await startService(kind, {
      settings: { logLevel: 'info' },
      app: { logger: true, logDestination: { write: (line) => void logged.push(line) } },
    });
  });
  after(async () => service?.close());

  /** Restarts with OWNER_* set to `owner`, as a person editing .env and starting again. */
  const restartWithOwner = async (owner: { username: string; mail: string; password: string } | null) => {
    service.settings.owner = owner;
    logged.length = 0;
    await service.restart();
  };
  const login = (username: string, password: string) => service.call('POST', '/api/auth/login', { body: { username, password } });
  const consoleStatus = async (token: string) => (await service.call('GET', '/api/admin/users', { token })).status;
  const PASSWORD_KEPT = 'it keeps its own password (OWNER_PASSWORD is not its password and was not set)';
  const permsOf = async (mail: string) =>
    (await service.db.selectFrom('users').select('perms').where('mail', '=', mail).executeTakeFirstOrThrow()).perms;

  it('knows at a start without OWNER_* that no account is an owner yet (the start line says how to make one)', async () => {
    await restartWithOwner(null);
    assert.equal(service.app.ownerAtStart, 'none');
  });

  it('makes a registered player the owner, keeps their own password, and names the account in the log', async () => {
    const player = await service.registerPlayer({ username: uniqueName('Me'), password: 'my own pass 77' });
    assert.equal(await consoleStatus(player.token), 403, 'a player before');
    // OWNER_USERNAME differs from the account's name, the address's letter case too: the address decides.
    await restartWithOwner({ username: 'SomeOwner', mail: player.mail.toUpperCase(), password: 'the env password 88' });
    assert.equal(await permsOf(player.mail), 3);
    const own = await login(player.mail, player.password);
    assert.equal(own.status, 200, 'the own password logs in');
    assert.equal(await consoleStatus(own.body.data.jwt), 200, 'the console opens');
    assert.equal((await login(player.mail, 'the env password 88')).status, 401, 'OWNER_PASSWORD was not set');
    const line = messages().find((message) => message.includes('now the owner'));
    assert.equal(
      line,
      `the account ${player.username} (${player.mail}) is now the owner (it was player); ` +
        'it keeps its own password (OWNER_PASSWORD is not its password and was not set)',
    );
    assert.ok(!messages().some((message) => message.includes('the env password')), 'no password in the log');
    assert.equal(service.app.ownerAtStart, 'from-settings');
    const entry = await service.db
      .selectFrom('audit_log')
      .select(['iss', 'details'])
      .where('action', '=', 'user.owner_from_settings')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    assert.equal(entry.iss, 'system');
    assert.deepEqual(JSON.parse(entry.details!), { from: 0, password: 'kept' });

    // The next start changes nothing and says so, again with the account's own name.
    await restartWithOwner({ username: 'SomeOwner', mail: player.mail, password: 'the env password 88' });
    assert.ok(
      messages().includes(
        `owner account exists: ${player.username} (${player.mail}); it keeps its own password (OWNER_PASSWORD is not its password and was not set)`,
      ),
      messages().join('\n'),
    );
  });

  it('says nothing of the password when OWNER_PASSWORD is the account password', async () => {
    const player = await service.registerPlayer({ password: 'same pass for both 5' });
    await restartWithOwner({ username: 'SomeOwner', mail: player.mail, password: player.password });
    assert.ok(
      messages().includes(`the account ${player.username} (${player.mail}) is now the owner (it was player)`),
      messages().join('\n'),
    );
  });

  it('gives an address never confirmed OWNER_PASSWORD: whoever registered it first does not become the owner', async () => {
    // Someone else registers the owner's address first and cannot confirm it (the code goes to the owner's mail).
    const mail = `${uniqueName('owner')}@example.org`;
    const ip = randomAddress();
    assert.equal((await service.call('POST', '/api/auth/register', { body: { mail, password: 'squatter pass 1234' }, ip })).status, 200);
    const squattersCode = codeIn(await service.mailbox.waitFor(mailTo(mail)));
    const ownerName = uniqueName('Boss');
    await restartWithOwner({ username: ownerName, mail, password: 'the real owner pass 9' });
    assert.equal(await permsOf(mail), 3);
    assert.equal((await login(mail, 'squatter pass 1234')).status, 401, "the first registration's password is gone");
    const owner = await login(ownerName, 'the real owner pass 9');
    assert.equal(owner.status, 200, 'OWNER_PASSWORD logs in, by OWNER_USERNAME: the registration is finished');
    assert.equal(await consoleStatus(owner.body.data.jwt), 200);
    // The code mailed for that registration carried its password: it confirms nothing now.
    assert.equal((await service.call('POST', '/api/auth/confirm', { body: { code: squattersCode }, ip })).status, 400);
    assert.equal((await login(mail, 'squatter pass 1234')).status, 401);
    assert.ok(
      messages().some((message) =>
        message.startsWith(
          `the account ${ownerName} (${mail}) is now the owner (it was player); its mail address had never been confirmed`,
        ),
      ),
      messages().join('\n'),
    );
  });

  it('finishes with OWNER_USERNAME the registration of a confirmed address that has no name yet', async () => {
    const mail = `${uniqueName('half')}@example.org`;
    const ip = randomAddress();
    assert.equal((await service.call('POST', '/api/auth/register', { body: { mail, password: 'halfway pass 4321' }, ip })).status, 200);
    const code = codeIn(await service.mailbox.waitFor(mailTo(mail)));
    assert.equal((await service.call('POST', '/api/auth/confirm', { body: { code }, ip })).status, 200);
    const ownerName = uniqueName('Own');
    await restartWithOwner({ username: ownerName, mail, password: 'another env pass 5' });
    const owner = await login(ownerName, 'halfway pass 4321');
    assert.equal(owner.status, 200, 'the own password, by the new name');
    assert.equal(owner.body.url, `${service.settings.publicUrl}/home`, 'the registration is finished');
    assert.equal(await consoleStatus(owner.body.data.jwt), 200);
    assert.ok(
      messages().includes(`the account ${ownerName} (${mail}) is now the owner (it was player); ${PASSWORD_KEPT}`),
      messages().join('\n'),
    );
  });
});
