// Yggdrasil Connect's pages in a real browser (Debian's Chromium): openid-client is the launcher, the player logs in
// on /device or /authorize, picks a profile and answers; the launcher's tokens then join a game server as that
// profile. Two launchers in a row in one browser; a login that ended on the way; a link to another browser's request;
// the device page on a phone in Russian and Chinese. And the profile's list of launchers, with revoke.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { accessibilityProblems, assertAccessibleInBothThemes } from '../support/accessibility.ts';
import { browserMissing, launchBrowser, logIn, logInWithToken, openWatchedPage, PHONE } from '../support/browser.ts';
import { describeEachDatabase } from '../support/databases.ts';
import { freePort } from '../support/net.ts';
import { DEVICE_SCOPE, launcherConfig, oidc } from '../support/oidc-launcher.ts';
import { randomAddress, startService, type TestService } from '../support/service.ts';

const skipReason = browserMissing();
const API = '/api/yggdrasil';
/** The shared client, as the pages name it in English (its stored name, "Launchers", never shows). */
const ASKS = 'A launcher asks to log in to your account';
const SELECT_AND_JOIN = 'openid offline_access Yggdrasil.PlayerProfiles.Select Yggdrasil.Server.Join';

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
      settings: {
        port,
        publicUrl: origin,
        profiles: { nameRule: 'minecraft', maxProfiles: 3, uuid: 'random', rename: true, nameChangeDays: 0 },
      },
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

  /** A launcher's loopback listener (the browser's last stop) and where the browser landed on it. */
  const loopbackListener = async () => {
    const landed: URL[] = [];
    const listener: Server = createServer((request, response) => {
      // Not the browser's /favicon.ico after it.
      if (request.url!.startsWith('/callback?')) landed.push(new URL(request.url!, address));
      response.end('You may close this window.');
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    const address = `http://127.0.0.1:${(listener.address() as AddressInfo).port}`;
    return { address, landed, close: () => listener.close() };
  };
  /** An authorization request as a launcher makes it: the URL to open, its PKCE verifier and state. */
  const authorizationRequest = async (redirect: string, scope: string) => {
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: redirect,
      scope,
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
    });
    return { url, verifier, state };
  };
  /** A page whose browser may go on to the launcher's loopback address (its listener's, not the site's). */
  const pageReaching = (loopback: string, viewport?: { width: number; height: number }) =>
    openWatchedPage(browser, origin, {
      tolerate: (problem) => problem.startsWith(`request to another origin: ${loopback}/`),
      ...(viewport ? { viewport } : {}),
    });

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

      const consent = page.getByRole('region', { name: ASKS });
      await consent.waitFor();
      await consent.getByText(`Code ${started.user_code}:`).waitFor();
      await consent.getByText('Only go on for a login you started yourself, in a launcher on this computer.').waitFor();
      const abilities = consent.getByRole('list', { name: 'What the launcher may do' });
      await abilities.getByRole('listitem').filter({ hasText: 'Join game servers as you' }).waitFor();
      await abilities.getByRole('listitem').filter({ hasText: "Change that profile's skin and cape" }).waitFor();
      await assertAccessibleInBothThemes(page, 'the device consent');
      await consent.getByRole('radio', { name: alt.name }).check();
      await consent.getByRole('button', { name: 'Allow' }).click();
      await page.getByRole('status').getByText('Done: the launcher is logged in. Go back to it.').waitFor();

      const tokens = await oidc.pollDeviceAuthorizationGrant(config, started);
      assert.deepEqual(tokens.claims()!.selectedProfile, alt);
      assert.equal(await joinsAs(tokens.access_token, alt, 'device-server'), 204);
      assert.equal(await joinsAs(tokens.access_token, steve.profiles[0]!, 'device-server-2'), 403, 'only the chosen profile');

      await page.goto(`${origin}/home`);
      const launchers = page.getByRole('region', { name: 'Launchers you let in' });
      const listed = launchers.getByRole('listitem').filter({ hasText: `Plays as ${alt.name}` });
      await listed.getByText('A launcher', { exact: true }).waitFor();
      await listed.getByRole('list', { name: 'What the launcher may do' }).getByText('Play as the game profile you choose').waitFor();
      assert.equal(await launchers.getByText('Launchers', { exact: true }).count(), 0, 'the stored name never shows');
      await assertAccessible(page, 'the launchers on the profile');
      await launchers.getByRole('button', { name: 'Revoke the launcher' }).click();
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
      const consent = page.getByRole('region', { name: ASKS });
      await consent.getByText(`Plays as ${alex.profiles[0]!.name}`).waitFor();
      await consent.getByText(`Code ${started.user_code}:`).waitFor({ timeout: 1000 });
      assert.equal(await consent.getByRole('radio').count(), 0, 'one profile: nothing to choose');
      await consent.getByRole('button', { name: 'Refuse' }).click();
      await page.getByRole('status').getByText('You refused the launcher').waitFor();
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
      const launcher = await loopbackListener();
      const { url, verifier, state } = await authorizationRequest(`${launcher.address}/callback`, SELECT_AND_JOIN);
      const page = await pageReaching(launcher.address);
      try {
        await page.goto(url.href);
        await logInAndComeBack(page, steve.username, steve.password, '/authorize');
        const consent = page.getByRole('region', { name: ASKS });
        await consent.getByText('Only allow a login you started yourself, a moment ago, in a launcher on this computer.').waitFor();
        await consent.getByRole('radio', { name: alt.name }).check();
        await assertAccessible(page, 'the authorization consent');
        await consent.getByRole('button', { name: 'Allow' }).click();
        await page.waitForURL(`${launcher.address}/**`);
      } finally {
        // The browser first (it still asks the launcher for a favicon), then the launcher's listener.
        await page.context().close();
        launcher.close();
      }
      const [landed] = launcher.landed;
      assert.ok(landed, 'the browser reached the launcher');
      const tokens = await oidc.authorizationCodeGrant(config, landed, { pkceCodeVerifier: verifier, expectedState: state });
      assert.deepEqual(tokens.claims()!.selectedProfile, alt);
      assert.equal(await joinsAs(tokens.access_token, alt, 'browser-server'), 204);
    },
  );

  it(
    'lets two launchers in one after the other in the same browser: Select and Join, then Read (issue 45)',
    { skip: skipReason ?? false },
    async () => {
      const steve = await player();
      const launcher = await loopbackListener();
      const page = await pageReaching(launcher.address);
      const first = await authorizationRequest(`${launcher.address}/callback`, SELECT_AND_JOIN);
      const second = await authorizationRequest(`${launcher.address}/callback`, 'openid Yggdrasil.PlayerProfiles.Read');
      try {
        await page.goto(first.url.href);
        await logInAndComeBack(page, steve.username, steve.password, '/authorize');
        await page.getByRole('region', { name: ASKS }).getByRole('button', { name: 'Allow' }).click();
        await page.waitForURL(`${launcher.address}/**`);

        await page.goto(second.url.href);
        const consent = page.getByRole('region', { name: ASKS });
        await consent.getByRole('list', { name: 'What the launcher may do' }).getByText('See your game profiles').waitFor();
        await consent.getByRole('button', { name: 'Allow' }).click();
        await page.waitForURL(`${launcher.address}/**`);
      } finally {
        await page.context().close();
        launcher.close();
      }
      assert.equal(launcher.landed.length, 2, 'the browser reached the launcher twice');
      const joined = await oidc.authorizationCodeGrant(config, launcher.landed[0]!, {
        pkceCodeVerifier: first.verifier,
        expectedState: first.state,
      });
      assert.equal(await joinsAs(joined.access_token, steve.profiles[0]!, 'first-of-two'), 204);
      const read = await oidc.authorizationCodeGrant(config, launcher.landed[1]!, {
        pkceCodeVerifier: second.verifier,
        expectedState: second.state,
      });
      assert.deepEqual(read.claims()!.availableProfiles, steve.profiles);
    },
  );

  it(
    'sends a player whose login ended to the login page and back to the same request, never to an empty page',
    { skip: skipReason ?? false },
    async () => {
      const steve = await player();
      const launcher = await loopbackListener();
      const page = await pageReaching(launcher.address);
      try {
        await logIn(page, origin, steve.username, steve.password);
        // The profile has loaded (none of its requests sees the session end, which would forget the token at once).
        await page.waitForLoadState('networkidle');
        // The session ends while the page keeps its token: "log out everywhere" from another device.
        const token = await page.evaluate(() => localStorage.getItem('skinservice.token'));
        assert.equal((await service.call('DELETE', '/api/home/sessions', { token: token! })).status, 200);
        const request = await authorizationRequest(`${launcher.address}/callback`, SELECT_AND_JOIN);
        await page.goto(request.url.href);
        await logInAndComeBack(page, steve.username, steve.password, '/authorize');
        await page.getByRole('region', { name: ASKS }).getByRole('button', { name: 'Allow' }).click();
        await page.waitForURL(`${launcher.address}/**`);
      } finally {
        await page.context().close();
        launcher.close();
      }
      assert.equal(launcher.landed.length, 1);
    },
  );

  it(
    'says, in words, that a request begun in another browser (a link someone sent) cannot be allowed, and grants nothing',
    { skip: skipReason ?? false },
    async () => {
      const victim = await player();
      // The attacker begins a request in a browser of their own and sends the victim the consent page's address.
      const { url } = await authorizationRequest('http://127.0.0.1:40123/callback', SELECT_AND_JOIN);
      const opened = await service.call('GET', url.pathname + url.search, { ip: randomAddress() });
      const link = new URL(String(opened.headers.location), origin).href;
      const page = await openWatchedPage(browser, origin);
      await logIn(page, origin, victim.username, victim.password);
      await page.goto(link);
      await page.getByRole('alert').getByText('This launcher login was not begun in this browser').waitFor();
      await page.getByRole('alert').getByText('If someone sent you this link, close it').waitFor();
      assert.equal(await page.getByRole('button', { name: 'Allow' }).count(), 0, 'nothing to allow');
      await page.getByRole('link', { name: 'Go to your profile' }).waitFor();
      await assertAccessible(page, 'the refusal');
      assert.deepEqual((await service.call('GET', '/api/home/oauth/grants', { token: victim.token })).body.data, []);
    },
  );

  it(
    'says what to do when the service cannot be reached or answers something else than the API',
    { skip: skipReason ?? false },
    async () => {
      const alex = await player();
      const page = await openWatchedPage(browser, origin, { tolerate: (problem) => /ERR_FAILED|status of 502/.test(problem) });
      await logInWithToken(page, origin, alex.token);
      await page.route('**/api/oauth/request', (route) => route.abort());
      await page.goto(`${origin}/device?user_code=WDJB-MJHT`);
      await page.getByRole('alert').getByText('The site could not be reached: check your connection and try again.').waitFor();
      await page.unroute('**/api/oauth/request');
      // A proxy in front of the service answering for it, in HTML.
      await page.route('**/api/oauth/request', (route) =>
        route.fulfill({ status: 502, contentType: 'text/html', body: '<h1>Bad Gateway</h1>' }),
      );
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByRole('alert').getByText('The service answered 502: try again in a moment.').waitFor();
      await page.goto(`${origin}/authorize?uid=nothing-here`);
      await page.getByRole('alert').getByText('The service answered 502: try again in a moment.').waitFor();
      await page.getByRole('link', { name: 'Go to your profile' }).waitFor();
      await page.unroute('**/api/oauth/request');
      await page.goto(`${origin}/authorize`);
      await page.getByRole('alert').getByText("This page was opened without a launcher's request.").waitFor();
      await page.goto(`${origin}/authorize?uid=nothing-here`);
      await page.getByRole('alert').getByText('This launcher login has ended or was already answered').waitFor();
    },
  );

  for (const [language, words] of [
    [
      'ru',
      {
        asks: 'Лаунчер просит войти в вашу учётную запись',
        allow: 'Разрешить',
        done: 'Готово: лаунчер вошёл. Вернитесь в него.',
        profile: 'Профиль',
        logOut: 'Выйти',
      },
    ],
    [
      'zh-CN',
      {
        asks: '一个启动器请求登录你的账户',
        allow: '允许',
        done: '完成：启动器已登录。请回到启动器。',
        profile: '个人资料',
        logOut: '登出',
      },
    ],
  ] as const) {
    it(
      `shows the device login on a phone in ${language}: the launcher named in the language, the code as XXXX-XXXX, by keyboard`,
      { skip: skipReason ?? false },
      async () => {
        const alex = await player();
        assert.equal((await service.call('PATCH', '/api/home', { token: alex.token, body: { language } })).status, 200);
        const started = await oidc.initiateDeviceAuthorization(config, { scope: DEVICE_SCOPE });
        const page = await openWatchedPage(browser, origin, { viewport: PHONE, context: { locale: language } });
        await logInWithToken(page, origin, alex.token);
        await page.goto(`${origin}/device`);
        const header = page.getByRole('banner');
        await header.getByRole('link', { name: words.profile }).waitFor();
        await header.getByRole('button', { name: words.logOut }).waitFor();
        // Typed as a player might: lower case, without the dash; shown as the launcher shows it.
        await page.getByRole('textbox').fill(started.user_code.replace('-', '').toLowerCase());
        await page.keyboard.press('Enter');
        const consent = page.getByRole('region', { name: words.asks });
        await consent.getByText(started.user_code).waitFor();
        const text = await page.locator('main').innerText();
        assert.doesNotMatch(text, /Launchers/, 'the stored English name never shows');
        const rest = text.replace(started.user_code, '').replace(alex.username, '').replace('Yggdrasil Connect', '');
        assert.doesNotMatch(rest, /[A-Za-z]{2,}/, `English left on the page: ${rest}`);
        const widths = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, window: innerWidth }));
        assert.ok(widths.page <= widths.window, `${widths.page} px wide on a ${widths.window} px phone`);
        await assertAccessible(page, `the device consent in ${language}`);
        // By keyboard: Tab to Allow, Enter.
        for (let press = 0; press < 30; press++) {
          if ((await page.evaluate(() => document.activeElement?.textContent)) === words.allow) break;
          await page.keyboard.press('Tab');
        }
        await page.keyboard.press('Enter');
        await page.getByRole('status').getByText(words.done).waitFor();
        assert.ok((await oidc.pollDeviceAuthorizationGrant(config, started)).access_token);
      },
    );
  }
});
