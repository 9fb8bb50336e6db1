// Logging in through an OpenID Connect provider from the login page, in a real browser (Debian's Chromium): the
// browser follows the redirects to the provider stand-in on 127.0.0.1 (test/support/openid-provider.ts, a real
// oidc-provider) and back through /oidc, as it would to a community's Keycloak.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { accessibilityProblems } from '../support/accessibility.ts';
import { browserMissing, launchBrowser, logIn, logInWithToken, openWatchedPage } from '../support/browser.ts';
import { describeEachDatabase } from '../support/databases.ts';
import { freePort } from '../support/net.ts';
import { oidcPerson, standInProvider, startOpenIdStandIn, throughProvider, type OpenIdStandIn } from '../support/openid-provider.ts';
import { DEVICE_SCOPE, launcherConfig, oidc } from '../support/oidc-launcher.ts';
import { OWNER, randomAddress, startService, type TestService } from '../support/service.ts';
import { linkIn, mailTo } from '../support/smtp.ts';

const skipReason = browserMissing();
const ID = 'community';

describeEachDatabase('OpenID Connect login in a browser', (kind) => {
  let service: TestService;
  let standIn: OpenIdStandIn;
  let browser: Browser;
  let origin: string;
  let callbackUrl: string;
  before(async () => {
    if (skipReason) return;
    const port = await freePort();
    // The pages are opened by the address the provider sends the browser back to: PUBLIC_URL is this origin.
    origin = `http://127.0.0.1:${port}`;
    callbackUrl = `${origin}/api/auth/oidc/${ID}/callback`;
    standIn = await startOpenIdStandIn(callbackUrl);
    service = await startService(kind, {
      settings: {
        owner: OWNER,
        port,
        publicUrl: origin,
        oidcProviders: [standInProvider(standIn, ID, false)],
      },
    });
    await service.app.listen({ port, host: '127.0.0.1' });
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await service?.close();
    await standIn?.close();
  });

  it("logs in by the provider's button on the login page", { skip: skipReason ?? false }, async () => {
    // An identity at the provider linked to a player's account (the linking itself is the API's test).
    const player = await service.registerPlayer();
    const person = oidcPerson({ preferred_username: 'blockfan' });
    standIn.signIn(person);
    const begun = await service.call('POST', `/api/home/oidc/${ID}`, {
      token: player.token,
      body: { password: player.password },
      ip: randomAddress(),
    });
    assert.equal(begun.status, 200, JSON.stringify(begun.body));
    const cookie = String(begun.headers['set-cookie']).split(';')[0]!;
    const linked = await service.call('GET', await throughProvider(begun.body.url as string, callbackUrl), { headers: { cookie } });
    assert.equal(linked.headers.location, `${origin}/home`);

    const page = await openWatchedPage(browser, origin, {
      tolerate: (problem) => problem.includes(`request to another origin: ${standIn.issuer}/`),
    });
    await page.setViewportSize({ width: 360, height: 740 });
    await page.goto(`${origin}/login`);
    const button = page.getByRole('link', { name: 'Log in with Craft community' });
    await button.waitFor();
    assert.deepEqual(await accessibilityProblems(page), [], 'login page with a provider, light');
    await page.emulateMedia({ colorScheme: 'dark' });
    assert.deepEqual(await accessibilityProblems(page), [], 'login page with a provider, dark');
    // Keyboard: the button is reached with Tab and followed with Enter.
    let focused = false;
    for (let step = 0; step < 20 && !focused; step += 1) {
      await page.keyboard.press('Tab');
      focused = await button.evaluate((element) => element === document.activeElement);
    }
    assert.ok(focused, 'the button is reached by the keyboard');
    const exchanges: string[] = [];
    page.on('request', (request) => request.url().endsWith('/api/auth/oidc/exchange') && exchanges.push(request.url()));
    await page.keyboard.press('Enter');
    await page.waitForURL(`${origin}/home`);
    assert.equal(exchanges.length, 1);
    const token = await page.evaluate(() => localStorage.getItem('skinservice.token'));
    assert.equal((await service.call('GET', '/api/home', { token: token! })).body.data.Username, player.username);
    await page.close();
  });

  it('sends a person whose identity is linked to nobody back to the login page, logged out', { skip: skipReason ?? false }, async () => {
    standIn.signIn(oidcPerson());
    const page = await openWatchedPage(browser, origin, {
      tolerate: (problem) => problem.includes(`request to another origin: ${standIn.issuer}/`),
    });
    await page.goto(`${origin}/login`);
    await page.getByRole('link', { name: 'Log in with Craft community' }).click();
    await page.waitForURL(`${origin}/login?oidc=not-linked`);
    await page.getByText('That identity is not linked to any account here').waitFor();
    assert.equal(await page.evaluate(() => localStorage.getItem('skinservice.token')), null);
    await page.close();
  });

  it('links an identity from the profile on a phone, and unlinks it with the password', { skip: skipReason ?? false }, async () => {
    const player = await service.registerPlayer();
    standIn.signIn(oidcPerson({ preferred_username: 'redstonerider' }));
    const page = await openWatchedPage(browser, origin, {
      viewport: { width: 360, height: 740 },
      tolerate: (problem) => problem.includes(`request to another origin: ${standIn.issuer}/`),
    });
    await logIn(page, origin, player.username, player.password);
    const card = page.getByRole('region', { name: 'Log-in providers' });
    await card.getByText('Not linked').waitFor();
    await card.getByRole('button', { name: 'Link Craft community' }).click();
    await card.getByLabel('Your password').fill(player.password);
    await card.getByRole('button', { name: 'Continue to Craft community' }).click();
    // To the provider (it agrees at once) and back to the profile.
    await page.waitForURL(`${origin}/home`);
    await card.getByText(/Linked as redstonerider/).waitFor();
    assert.equal((await service.call('GET', '/api/home', { token: player.token })).body.data.Identities.length, 1);
    assert.deepEqual(await accessibilityProblems(page), [], 'profile with a linked identity, light');
    await page.emulateMedia({ colorScheme: 'dark' });
    assert.deepEqual(await accessibilityProblems(page), [], 'profile with a linked identity, dark');
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 360), 'nothing wider than the phone');

    // Unlinking asks for the password: a wrong one is said on its field and changes nothing.
    await card.getByRole('button', { name: 'Unlink Craft community' }).click();
    const password = card.getByLabel('Your password');
    await password.fill('not my password');
    await card.getByRole('button', { name: 'Unlink Craft community' }).click();
    await card.getByText('The password is wrong').waitFor();
    assert.equal((await service.call('GET', '/api/home', { token: player.token })).body.data.Identities.length, 1);
    await password.fill(player.password);
    await card.getByRole('button', { name: 'Unlink Craft community' }).click();
    await card.getByText('Craft community is unlinked').waitFor();
    await card.getByRole('button', { name: 'Link Craft community' }).waitFor();
    assert.deepEqual((await service.call('GET', '/api/home', { token: player.token })).body.data.Identities, []);
    await page.close();
  });
});

describeEachDatabase('OpenID Connect registration and a launcher in a browser', (kind) => {
  let service: TestService;
  let standIn: OpenIdStandIn;
  let browser: Browser;
  let origin: string;
  let launcher: oidc.Configuration;
  const person = oidcPerson({ preferred_username: 'Sky.Builder' });
  const username = `Sky_${Math.random().toString(36).slice(2, 8)}`;
  before(async () => {
    if (skipReason) return;
    const port = await freePort();
    origin = `http://127.0.0.1:${port}`;
    standIn = await startOpenIdStandIn(`${origin}/api/auth/oidc/${ID}/callback`);
    service = await startService(kind, {
      settings: {
        owner: OWNER,
        port,
        publicUrl: origin,
        oidcProviders: [standInProvider(standIn, ID, true)],
      },
    });
    await service.app.listen({ port, host: '127.0.0.1' });
    browser = await launchBrowser();
    launcher = await launcherConfig(service);
  });
  after(async () => {
    await browser?.close();
    await service?.close();
    await standIn?.close();
  });
  const watched = () =>
    openWatchedPage(browser, origin, {
      viewport: { width: 360, height: 740 },
      tolerate: (problem) => problem.includes(`request to another origin: ${standIn.issuer}/`),
    });

  it(
    "registers by the provider's button on the registration page, by keyboard on a phone: picks the name, no password, no mail code",
    { skip: skipReason ?? false },
    async () => {
      standIn.signIn(person);
      const page = await watched();
      await page.goto(`${origin}/register`);
      const button = page.getByRole('link', { name: 'Register with Craft community' });
      await button.waitFor();
      let focused = false;
      for (let step = 0; step < 25 && !focused; step += 1) {
        await page.keyboard.press('Tab');
        focused = await button.evaluate((element) => element === document.activeElement);
      }
      assert.ok(focused, 'the button is reached by the keyboard');
      await page.keyboard.press('Enter');
      await page.waitForURL(/\/register\/oidc\?ticket=/);
      await page.getByText(`Craft community says you are ${person.email}.`).waitFor();
      await page.getByText('The provider has confirmed this address').waitFor();
      const name = page.getByLabel('Your name in the game');
      assert.equal(await name.inputValue(), 'SkyBuilder', 'the provider’s name, in the game’s letters');
      assert.deepEqual(await accessibilityProblems(page), [], 'the registration through a provider, light');
      await page.emulateMedia({ colorScheme: 'dark' });
      assert.deepEqual(await accessibilityProblems(page), [], 'the registration through a provider, dark');
      assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 360), 'nothing wider than the phone');
      await name.fill(username);
      await page.getByRole('button', { name: 'Make my account' }).click();
      await page.waitForURL(`${origin}/home`);
      const token = await page.evaluate(() => localStorage.getItem('skinservice.token'));
      const home = (await service.call('GET', '/api/home', { token: token! })).body.data;
      assert.equal(home.Username, username);
      assert.equal(home.Identities[0].name, 'Sky.Builder');
      assert.equal(service.mailbox.messages.filter(mailTo(person.email)).length, 0, 'no mail code');

      // Password-less: the profile offers to set a password (by a mailed code) instead of forms that ask for one.
      const security = page.getByRole('region', { name: 'Set a password' });
      await security.getByText('Your account has no password').waitFor();
      assert.equal(await page.getByRole('region', { name: 'Change password' }).count(), 0, 'no form to change a password');
      await page.getByRole('region', { name: 'Change mail address' }).getByText('set one first under “Set a password”').waitFor();
      assert.equal(await page.getByLabel('Current password').count(), 0, 'nothing asks for a password it does not have');
      for (const card of ['Two-factor login', 'Passkeys', 'App passwords', 'Delete my account']) {
        const region = page.getByRole('region', { name: card });
        await region.getByText('This asks for your password: set one first under “Set a password”.').waitFor();
        assert.equal(await region.locator('input[type=password]').count(), 0, `${card}: no password field`);
      }
      assert.deepEqual(await accessibilityProblems(page), [], 'the profile of a password-less account');
      assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 360), 'nothing wider than the phone');
      await security.getByRole('button', { name: 'Mail me a code' }).click();
      await page.waitForURL(`${origin}/reset/confirm`);
      await service.mailbox.waitFor(mailTo(person.email));
      await page.close();
    },
  );

  it("shows the account's identity in the console's user editor", { skip: skipReason ?? false }, async () => {
    const { id } = await service.db.selectFrom('users').select('id').where('username', '=', username).executeTakeFirstOrThrow();
    const page = await openWatchedPage(browser, origin, { viewport: { width: 360, height: 740 } });
    await logInWithToken(page, origin, await service.ownerToken());
    await page.goto(`${origin}/admin?tab=users&user=${id}`);
    const editor = page.getByRole('dialog').getByRole('region', { name: `User ${username}` });
    const identities = editor.getByRole('group', { name: 'Log-in providers' });
    await identities.getByText(/^Craft community: Sky\.Builder \(…/).waitFor();
    assert.deepEqual(await accessibilityProblems(page), [], 'the user editor with an identity');
    await page.close();
  });

  it(
    "logs in through the provider, lets a launcher in by the device login, and the launcher's token joins a server",
    { skip: skipReason ?? false },
    async () => {
      const started = await oidc.initiateDeviceAuthorization(launcher, { scope: DEVICE_SCOPE });
      standIn.signIn(person);
      const page = await watched();
      // The launcher's link: the page asks to log in first; the provider's button does it, and the page comes back.
      await page.goto(started.verification_uri_complete!);
      await page.waitForURL(/\/login\?next=/);
      await page.getByRole('link', { name: 'Log in with Craft community' }).click();
      await page.waitForURL((url) => url.pathname === '/device');
      const consent = page.getByRole('region', { name: 'A launcher asks to log in to your account' });
      await consent.getByText(`Code ${started.user_code}:`).waitFor();
      await consent.getByRole('button', { name: 'Allow' }).click();
      await page.getByRole('status').getByText('Done: the launcher is logged in. Go back to it.').waitFor();

      const tokens = await oidc.pollDeviceAuthorizationGrant(launcher, started);
      const profile = tokens.claims()!.selectedProfile as { id: string; name: string };
      assert.equal(profile.name, username);
      const joined = await service.call('POST', '/api/yggdrasil/sessionserver/session/minecraft/join', {
        body: { accessToken: tokens.access_token, selectedProfile: profile.id, serverId: 'provider-chain' },
        ip: randomAddress(),
      });
      assert.equal(joined.status, 204, joined.raw.toString());
      const checked = await service.call(
        'GET',
        `/api/yggdrasil/sessionserver/session/minecraft/hasJoined?username=${username}&serverId=provider-chain`,
      );
      assert.equal(checked.status, 200);
      assert.equal(checked.body.id, profile.id);
      await page.close();
    },
  );

  it(
    'registers through the provider with an address it has not confirmed: our mail confirms it, then the provider logs in',
    { skip: skipReason ?? false },
    async () => {
      const unconfirmed = oidcPerson({ preferred_username: 'Quiet.Miner', email_verified: false });
      standIn.signIn(unconfirmed);
      const page = await watched();
      await page.goto(`${origin}/register`);
      await page.getByRole('link', { name: 'Register with Craft community' }).click();
      await page.waitForURL(/\/register\/oidc\?ticket=/);
      await page.getByText('The provider has not confirmed this address').waitFor();
      const name = `Quiet_${Math.random().toString(36).slice(2, 8)}`;
      await page.getByLabel('Your name in the game').fill(name);
      await page.getByRole('button', { name: 'Make my account' }).click();
      await page.waitForURL(`${origin}/mail/confirm`);
      assert.equal(await page.evaluate(() => localStorage.getItem('skinservice.token')), null, 'not logged in before the mail');
      assert.deepEqual(await accessibilityProblems(page), [], 'the mail step after a registration through a provider');
      assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 360), 'nothing wider than the phone');
      // The link in our mail confirms the address; then the provider's button logs in.
      await page.goto(linkIn(await service.mailbox.waitFor(mailTo(unconfirmed.email))));
      // The page's words fit a registration's address as they fit a changed one.
      await page.getByRole('status').getByText('Your mail address is confirmed.').waitFor();
      await page.getByRole('link', { name: 'Log in', exact: true }).waitFor();
      await page.goto(`${origin}/login`);
      await page.getByRole('link', { name: 'Log in with Craft community' }).click();
      await page.waitForURL(`${origin}/home`);
      const token = await page.evaluate(() => localStorage.getItem('skinservice.token'));
      const home = (await service.call('GET', '/api/home', { token: token! })).body.data;
      assert.equal(home.Username, name);
      assert.equal(home.Mail_verify, 1);
      await page.close();
    },
  );

  it(
    "lets the owner unlink the player's identity in the console, saying it is the last way in",
    { skip: skipReason ?? false },
    async () => {
      const { id } = await service.db.selectFrom('users').select('id').where('username', '=', username).executeTakeFirstOrThrow();
      const page = await openWatchedPage(browser, origin, { viewport: { width: 360, height: 740 } });
      await logInWithToken(page, origin, await service.ownerToken());
      await page.goto(`${origin}/admin?tab=users&user=${id}`);
      const identities = page.getByRole('dialog').getByRole('group', { name: 'Log-in providers' });
      await identities.getByRole('button', { name: 'Unlink Craft community' }).click();
      const asked = identities.getByRole('alertdialog');
      await asked.getByText(`This is the last way ${username} can log in`).waitFor();
      assert.deepEqual(await accessibilityProblems(page), [], 'the question before unlinking the last way in');
      await asked.getByRole('button', { name: 'Unlink Craft community' }).click();
      await identities.getByText(`Craft community is unlinked from ${username}.`).waitFor();
      await identities.getByText('No identity at a log-in provider is linked.').waitFor();
      assert.equal(
        (await service.db.selectFrom('oidc_identities').select('id').where('user_id', '=', id).execute()).length,
        0,
        'the identity is gone',
      );
      await page.close();
    },
  );
});
