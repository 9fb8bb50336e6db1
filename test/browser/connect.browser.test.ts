// Yggdrasil Connect's pages in a real browser (Debian's Chromium): openid-client is the launcher, the player logs in
// on /device or /authorize, picks a profile and answers; the launcher's tokens then join a game server as that
// profile. And the profile's list of launchers, with revoke.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { accessibilityProblems } from '../support/accessibility.ts';
import { browserMissing, launchBrowser, logIn, openWatchedPage } from '../support/browser.ts';
import { describeEachDatabase } from '../support/databases.ts';
import { freePort } from '../support/net.ts';
import { DEVICE_SCOPE, launcherConfig, oidc } from '../support/oidc-launcher.ts';
import { randomAddress, startService, type TestService } from '../support/service.ts';

const skipReason = browserMissing();
const API = '/api/yggdrasil';
const LAUNCHER = 'Launchers';

describeEachDatabase('Yggdrasil Connect pages in a browser', (kind) => {
  let service: TestService;
  let browser: Browser;
  let origin: string;
  let config: oidc.Configuration;
  before(async () => {
    if (skipReason) return;
    const port = await freePort();
    // The browser follows the provider's redirects by PUBLIC_URL: the pages are opened by that address.
    origin = `http://127.0.0.1:${port}`;
    service = await startService(kind, {
      settings: { port, publicUrl: origin, profiles: { nameRule: 'minecraft', maxProfiles: 3, uuid: 'random', rename: true } },
    });
    await service.app.listen({ port, host: '127.0.0.1' });
    browser = await launchBrowser();
    config = await launcherConfig(service);
  });
  after(async () => {
    await browser?.close();
    await service?.close();
  });

  /** A player with `profiles` game profiles (the first is the account's own): their names and ids. */
  const player = async (profiles = 1) => {
    const registered = await service.registerPlayer();
    for (let index = 1; index < profiles; index++) {
      const added = await service.call('POST', '/api/home/profiles', {
        token: registered.token,
        body: { name: `Alt${index}${registered.username.slice(-6)}` },
      });
      assert.equal(added.status, 201, added.body.msg);
    }
    const home = (await service.call('GET', '/api/home', { token: registered.token })).body.data;
    const owned = [
      { Uuid: home.Uuid, Username: home.Username },
      ...home.Profiles.filter((listed: { Uuid: string }) => listed.Uuid !== home.Uuid),
    ];
    return {
      ...registered,
      profiles: owned.map((listed) => ({ id: String(listed.Uuid).replace(/-/g, ''), name: String(listed.Username) })),
    };
  };
  const joinsAs = async (accessToken: string, profile: { id: string; name: string }, serverId: string) => {
    const joined = await service.call('POST', `${API}/sessionserver/session/minecraft/join`, {
      body: { accessToken, selectedProfile: profile.id, serverId },
      ip: randomAddress(),
    });
    if (joined.status !== 204) return joined.status;
    const checked = await service.call(
      'GET',
      `${API}/sessionserver/session/minecraft/hasJoined?username=${profile.name}&serverId=${serverId}`,
    );
    assert.equal(checked.status, 200);
    assert.equal(checked.body.id, profile.id);
    return joined.status;
  };
  const assertAccessible = async (page: Page, what: string) => assert.deepEqual(await accessibilityProblems(page), [], what);
  /** From a page the login sent the visitor away from: logs in there, and waits to be back on `path`. */
  const logInAndComeBack = async (page: Page, username: string, password: string, path: string) => {
    await page.waitForURL(/\/login\?next=/);
    await logIn(page, origin, username, password, { waitForHome: false, onLoginPage: true });
    await page.waitForURL((url) => url.pathname === path);
  };

  it(
    'logs a launcher in with the device code: login, the code from the link, a chosen profile; the profile revokes it',
    { skip: skipReason ?? false },
    async () => {
      const steve = await player(2);
      const alt = steve.profiles[1]!;
      const started = await oidc.initiateDeviceAuthorization(config, { scope: DEVICE_SCOPE });
      const page = await openWatchedPage(browser, origin);
      await page.goto(started.verification_uri_complete!);
      await logInAndComeBack(page, steve.username, steve.password, '/device');

      const consent = page.getByRole('region', { name: `${LAUNCHER} asks to log in to your account` });
      await consent.waitFor();
      await consent.getByText(`Code ${started.user_code}:`).waitFor();
      await consent.getByRole('listitem').filter({ hasText: 'Join game servers as you' }).waitFor();
      await assertAccessible(page, 'the device consent');
      await consent.getByRole('radio', { name: alt.name }).check();
      await consent.getByRole('button', { name: 'Allow' }).click();
      await page.getByRole('status').getByText(`Done: ${LAUNCHER} is logged in. Go back to your launcher.`).waitFor();

      const tokens = await oidc.pollDeviceAuthorizationGrant(config, started);
      assert.deepEqual(tokens.claims()!.selectedProfile, alt);
      assert.equal(await joinsAs(tokens.access_token, alt, 'device-server'), 204);
      assert.equal(await joinsAs(tokens.access_token, steve.profiles[0]!, 'device-server-2'), 403, 'only the chosen profile');

      await page.goto(`${origin}/home`);
      const launchers = page.getByRole('region', { name: 'Launchers you let in' });
      const listed = launchers.getByRole('listitem').filter({ hasText: `Plays as ${alt.name}` });
      await listed.getByText(LAUNCHER, { exact: true }).waitFor();
      await listed
        .getByRole('list', { name: `What ${LAUNCHER} may do` })
        .getByText('Play as the game profile you choose')
        .waitFor();
      await assertAccessible(page, 'the launchers on the profile');
      await launchers.getByRole('button', { name: `Revoke ${LAUNCHER}` }).click();
      await launchers.getByRole('alertdialog').getByRole('button', { name: 'Revoke access' }).click();
      await launchers.getByText('No launcher yet.').waitFor();
      assert.equal(await joinsAs(tokens.access_token, alt, 'device-server-3'), 403, 'a revoked grant joins no server');
    },
  );

  it(
    'tells the launcher access_denied when the player refuses, and takes a typed code in any case without the dash',
    { skip: skipReason ?? false },
    async () => {
      const alex = await player();
      const started = await oidc.initiateDeviceAuthorization(config, { scope: DEVICE_SCOPE });
      const page = await openWatchedPage(browser, origin);
      await page.goto(`${origin}/device`);
      await logInAndComeBack(page, alex.username, alex.password, '/device');
      await page.getByLabel('Code shown by the launcher').fill('nope-nope');
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByText('No launcher is waiting with this code').waitFor();
      await page.getByLabel('Code shown by the launcher').fill(started.user_code.replace('-', '').toLowerCase());
      await page.getByRole('button', { name: 'Continue' }).click();
      const consent = page.getByRole('region', { name: `${LAUNCHER} asks to log in to your account` });
      await consent.getByText(`Plays as ${alex.profiles[0]!.name}`).waitFor();
      assert.equal(await consent.getByRole('radio').count(), 0, 'one profile: nothing to choose');
      await consent.getByRole('button', { name: 'Refuse' }).click();
      await page.getByRole('status').getByText(`You refused ${LAUNCHER}`).waitFor();
      await assert.rejects(
        oidc.pollDeviceAuthorizationGrant(config, started),
        (error: { error?: string }) => error.error === 'access_denied',
      );
    },
  );

  it(
    'logs a launcher in through /authorize: PKCE and a loopback redirect, with the profile chosen',
    { skip: skipReason ?? false },
    async () => {
      const steve = await player(2);
      const alt = steve.profiles[1]!;
      // The launcher's loopback listener: the browser's last stop.
      let landed: URL | null = null;
      const listener = createServer((request, response) => {
        // Not the browser's /favicon.ico after it.
        if (request.url!.startsWith('/callback?')) landed = new URL(request.url!, loopback);
        response.end('You may close this window.');
      });
      await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
      const loopback = `http://127.0.0.1:${(listener.address() as AddressInfo).port}`;
      const verifier = oidc.randomPKCECodeVerifier();
      const state = oidc.randomState();
      const url = oidc.buildAuthorizationUrl(config, {
        redirect_uri: `${loopback}/callback`,
        scope: 'openid offline_access Yggdrasil.PlayerProfiles.Select Yggdrasil.Server.Join',
        code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        state,
      });
      const page = await openWatchedPage(browser, origin, {
        tolerate: (problem) => problem.startsWith(`request to another origin: ${loopback}/`),
      });
      try {
        await page.goto(url.href);
        await logInAndComeBack(page, steve.username, steve.password, '/authorize');
        const consent = page.getByRole('region', { name: `${LAUNCHER} asks to log in to your account` });
        await consent.getByRole('radio', { name: alt.name }).check();
        await assertAccessible(page, 'the authorization consent');
        await consent.getByRole('button', { name: 'Allow' }).click();
        await page.waitForURL(`${loopback}/**`);
      } finally {
        // The browser first (it still asks the launcher for a favicon), then the launcher's listener.
        await page.context().close();
        listener.close();
      }
      assert.ok(landed, 'the browser reached the launcher');
      const tokens = await oidc.authorizationCodeGrant(config, landed, { pkceCodeVerifier: verifier, expectedState: state });
      assert.deepEqual(tokens.claims()!.selectedProfile, alt);
      assert.equal(await joinsAs(tokens.access_token, alt, 'browser-server'), 204);
    },
  );
});
