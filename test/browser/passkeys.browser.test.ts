// Passkeys in a real browser (Debian's Chromium) with the DevTools protocol's virtual authenticator (the WebAuthn
// domain), on SQLite and PostgreSQL: a player adds one on the profile and logs in with it on /login; a two-factor
// account logs in with the passkey alone; a launcher's device login (openid-client) gets through /device with a
// passkey and no password; a copy of the passkey whose counter went back is refused; one removed by its player or by
// an admin in the console no longer logs in; and /login opened by another address than PUBLIC_URL's says where
// passkeys work instead of offering them.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { Secret, TOTP } from 'otpauth';
import type { Browser, CDPSession, Page } from 'playwright-core';
import { assertAccessibleInBothThemes } from '../support/accessibility.ts';
import { browserMissing, launchBrowser, logIn, logInWithToken, openWatchedPage, screenshot } from '../support/browser.ts';
import { describeEachDatabase } from '../support/databases.ts';
import { freePort } from '../support/net.ts';
import { DEVICE_SCOPE, launcherConfig, oidc } from '../support/oidc-launcher.ts';
import { OWNER, startService, type TestService } from '../support/service.ts';
import { mailTo } from '../support/smtp.ts';

const skipReason = browserMissing();

/** A credential as the WebAuthn domain gives and takes it. */
interface VirtualCredential {
  credentialId: string;
  isResidentCredential: boolean;
  rpId: string;
  privateKey: string;
  userHandle: string;
  signCount: number;
}

/** A platform authenticator that verifies the user (as a fingerprint would) and answers at once, in `page`'s tab. */
async function virtualAuthenticator(page: Page): Promise<{ cdp: CDPSession; authenticatorId: string }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { cdp, authenticatorId };
}

describeEachDatabase('passkeys in a browser', (kind) => {
  let service: TestService;
  let browser: Browser;
  let origin: string;
  let otherOrigin: string;
  before(async () => {
    if (skipReason) return;
    const port = await freePort();
    // A passkey's relying party is a host name (never an IP address): the pages are opened by localhost, PUBLIC_URL's.
    origin = `http://localhost:${port}`;
    otherOrigin = `http://127.0.0.1:${port}`;
    service = await startService(kind, { settings: { port, publicUrl: origin, owner: OWNER } });
    await service.app.listen({ port, host: '127.0.0.1' });
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await service?.close();
  });

  /** A browser tab with its own virtual authenticator. */
  const tabWithAuthenticator = async () => {
    const page = await openWatchedPage(browser, origin);
    return { page, ...(await virtualAuthenticator(page)) };
  };
  const addPasskeyOnProfile = async (page: Page, name: string, password: string) => {
    const section = page.getByRole('region', { name: 'Passkeys' });
    await section.getByLabel('Name', { exact: true }).fill(name);
    await section.getByLabel('Your password').fill(password);
    await section.getByRole('button', { name: 'Add a passkey' }).click();
    await section.getByRole('listitem', { name }).waitFor();
    return section;
  };
  const logInWithPasskey = async (page: Page) => {
    await page.getByRole('button', { name: 'Log in with a passkey' }).click();
  };

  it('is added on the profile, logs in on /login, and is removed with the password', { skip: skipReason ?? false }, async () => {
    const player = await service.registerPlayer();
    const { page, cdp, authenticatorId } = await tabWithAuthenticator();
    await logIn(page, origin, player.username, player.password);
    const section = page.getByRole('region', { name: 'Passkeys' });
    await section.getByText('You have no passkeys.').waitFor();
    await addPasskeyOnProfile(page, 'Laptop', player.password);
    const item = section.getByRole('listitem', { name: 'Laptop' });
    assert.match(await item.innerText(), /never used/);
    const { credentials } = (await cdp.send('WebAuthn.getCredentials', { authenticatorId })) as { credentials: VirtualCredential[] };
    assert.equal(credentials.length, 1);
    assert.equal(credentials[0]!.rpId, 'localhost');
    assert.ok(credentials[0]!.isResidentCredential, 'a discoverable credential: the login needs no name');
    await service.mailbox.waitFor((m) => mailTo(player.mail)(m) && m.subject === 'A passkey was added to your account');
    await assertAccessibleInBothThemes(page, 'the passkeys on the profile');
    await screenshot(page, 'web-passkeys', section);

    await page.evaluate(() => localStorage.clear());
    await page.goto(`${origin}/login`);
    await logInWithPasskey(page);
    await page.waitForURL(`${origin}/home`);
    await item.getByText(/last used/).waitFor();

    await item.getByRole('button', { name: 'Remove the passkey Laptop' }).click();
    const question = section.getByRole('alertdialog');
    await question.getByLabel('Password').fill('not the password');
    await question.getByRole('button', { name: 'Remove Laptop' }).click();
    await section.getByText('Wrong password').waitFor();
    assert.equal(await item.count(), 1, 'a wrong password removes nothing');
    await item.getByRole('button', { name: 'Remove the passkey Laptop' }).click();
    await section.getByRole('alertdialog').getByLabel('Password').fill(player.password);
    await section.getByRole('alertdialog').getByRole('button', { name: 'Remove Laptop' }).click();
    await section.getByText('The passkey Laptop is removed.').waitFor();

    // The authenticator still has it; the site no longer takes it.
    await page.evaluate(() => localStorage.clear());
    await page.goto(`${origin}/login`);
    await logInWithPasskey(page);
    await page.getByText('This passkey is not known here').waitFor();
    assert.equal(new URL(page.url()).pathname, '/login');
  });

  it(
    'logs a two-factor account in with the passkey alone, and refuses a copy whose counter went back',
    { skip: skipReason ?? false },
    async () => {
      const player = await service.registerPlayer();
      const { page, cdp, authenticatorId } = await tabWithAuthenticator();
      await logInWithToken(page, origin, player.token);
      await page.goto(`${origin}/home`);
      await addPasskeyOnProfile(page, 'Phone', player.password);
      const setup = await service.call('POST', '/api/home/2fa', { token: player.token, body: { password: player.password } });
      const code = TOTP.generate({ secret: Secret.fromBase32(setup.body.data.secret as string), algorithm: 'SHA1', digits: 6, period: 30 });
      assert.equal((await service.call('POST', '/api/home/2fa/confirm', { token: player.token, body: { code } })).status, 200);
      const { credentials } = (await cdp.send('WebAuthn.getCredentials', { authenticatorId })) as { credentials: VirtualCredential[] };
      const original = credentials[0]!;

      await page.evaluate(() => localStorage.clear());
      await page.goto(`${origin}/login`);
      await logInWithPasskey(page);
      await page.waitForURL(`${origin}/home`); // no code asked for

      // A copy made before that login: its counter is behind the one the site saw.
      const copy = await tabWithAuthenticator();
      await copy.cdp.send('WebAuthn.addCredential', { authenticatorId: copy.authenticatorId, credential: { ...original, signCount: 0 } });
      await copy.page.goto(`${origin}/login`);
      await logInWithPasskey(copy.page);
      await copy.page.getByText('This passkey was refused').waitFor();
      const audit = await service.db.selectFrom('audit_log').select('details').where('action', '=', 'passkey.counter_regressed').execute();
      assert.ok(
        audit.some((row) => JSON.parse(row.details ?? '{}').name === 'Phone'),
        'audited',
      );
    },
  );

  it('gets a launcher in through /device with a passkey, without the password', { skip: skipReason ?? false }, async () => {
    const player = await service.registerPlayer();
    const { page } = await tabWithAuthenticator();
    await logIn(page, origin, player.username, player.password);
    await addPasskeyOnProfile(page, 'Phone', player.password);
    await page.evaluate(() => localStorage.clear());

    const config = await launcherConfig(service);
    const started = await oidc.initiateDeviceAuthorization(config, { scope: DEVICE_SCOPE });
    await page.goto(started.verification_uri_complete!);
    await page.waitForURL(/\/login\?next=/);
    await logInWithPasskey(page);
    await page.waitForURL((url) => url.pathname === '/device');
    await page.getByRole('button', { name: 'Allow' }).click();
    await page
      .getByRole('status')
      .getByText(/is logged in\. Go back to it\./)
      .waitFor();
    const tokens = await oidc.pollDeviceAuthorizationGrant(config, started);
    assert.equal((tokens.claims() as unknown as { selectedProfile: { name: string } }).selectedProfile.name, player.username);
  });

  it('is removed by an admin in the console (a lost device), after which it logs in no more', { skip: skipReason ?? false }, async () => {
    const player = await service.registerPlayer();
    const { page } = await tabWithAuthenticator();
    await logInWithToken(page, origin, player.token);
    await page.goto(`${origin}/home`);
    await addPasskeyOnProfile(page, 'Phone', player.password);
    const { id } = await service.db.selectFrom('users').select('id').where('username', '=', player.username).executeTakeFirstOrThrow();

    const adminPage = await openWatchedPage(browser, origin);
    await logInWithToken(adminPage, origin, await service.ownerToken());
    await adminPage.goto(`${origin}/admin?tab=users&user=${id}`);
    const group = adminPage.getByRole('dialog').getByRole('group', { name: 'Passkeys' });
    await group.getByRole('button', { name: 'Remove all passkeys' }).click();
    await group.getByRole('alertdialog').getByRole('button', { name: 'Remove all passkeys' }).click();
    await group.getByText(`1 passkey of ${player.username} removed.`).waitFor();

    await page.evaluate(() => localStorage.clear());
    await page.goto(`${origin}/login`);
    await logInWithPasskey(page);
    await page.getByText('This passkey is not known here').waitFor();
  });

  it("says on another address than PUBLIC_URL's where passkeys work, instead of offering them", { skip: skipReason ?? false }, async () => {
    const page = await openWatchedPage(browser, otherOrigin);
    await page.goto(`${otherOrigin}/login`);
    const note = page.getByText("Passkeys work only at this site's own address:");
    await note.waitFor();
    assert.equal(await page.getByRole('link', { name: origin }).getAttribute('href'), `${origin}/login`);
    assert.equal(await page.getByRole('button', { name: 'Log in with a passkey' }).count(), 0);
  });
});
