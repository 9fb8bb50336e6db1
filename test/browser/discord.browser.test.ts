// The Discord link and login through the pages, in a real browser (Debian's Chromium): the browser follows the
// redirects to the Discord stand-in on 127.0.0.1 (test/support/discord.ts) and back, as it would to Discord.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { accessibilityProblems } from '../support/accessibility.ts';
import { browserMissing, launchBrowser, logIn, openWatchedPage } from '../support/browser.ts';
import { describeEachDatabase } from '../support/databases.ts';
import { discordUser, startDiscordStandIn, type DiscordStandIn } from '../support/discord.ts';
import { freePort } from '../support/net.ts';
import { OWNER, startService, type TestService } from '../support/service.ts';

const skipReason = browserMissing();
const CDN = 'https://cdn.discordapp.com';
const AVATAR_PNG = readFileSync(join(import.meta.dirname, '../fixtures/skins/classic.png'));

describeEachDatabase('Discord pages in a browser', (kind) => {
  let service: TestService;
  let standIn: DiscordStandIn;
  let browser: Browser;
  let origin: string;
  before(async () => {
    if (skipReason) return;
    const port = await freePort();
    // The pages are opened by the address Discord sends the browser back to: PUBLIC_URL is this origin.
    origin = `http://127.0.0.1:${port}`;
    standIn = await startDiscordStandIn(`${origin}/api/auth/discord/callback`);
    service = await startService(kind, {
      settings: {
        owner: OWNER,
        port,
        publicUrl: origin,
        discord: { clientId: standIn.clientId, clientSecret: standIn.clientSecret, url: standIn.url },
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

  /**
   * A fresh browser. The pages themselves reach nothing but their origin; the stand-in's address is where the browser
   * is sent on purpose (Discord's consent page), and the avatar comes from Discord's CDN, answered here by the test.
   */
  const openPage = async (): Promise<{ page: Page; avatarRequests: string[] }> => {
    const page = await openWatchedPage(browser, origin, {
      tolerate: (problem) =>
        problem.includes(`request to another origin: ${standIn.url}/oauth2/authorize?`) || problem.includes(`${CDN}/avatars/`),
    });
    const avatarRequests: string[] = [];
    await page.route(`${CDN}/**`, async (route) => {
      avatarRequests.push(route.request().url());
      await route.fulfill({ status: 200, contentType: 'image/png', body: AVATAR_PNG });
    });
    return { page, avatarRequests };
  };
  const assertAccessible = async (page: Page, what: string) => {
    assert.deepEqual(await accessibilityProblems(page), [], `${what}, light`);
    await page.emulateMedia({ colorScheme: 'dark' });
    assert.deepEqual(await accessibilityProblems(page), [], `${what}, dark`);
    await page.emulateMedia({ colorScheme: 'light' });
  };

  it('links Discord from the profile, logs in with it from the login page, and unlinks', { skip: skipReason ?? false }, async () => {
    const player = await service.registerPlayer();
    const discord = discordUser({ username: 'creeperqueen' });
    standIn.signIn(discord);
    const { page, avatarRequests } = await openPage();
    await logIn(page, origin, player.username, player.password);

    const card = page.getByRole('region', { name: 'Discord' });
    await card.getByRole('button', { name: 'Link a Discord account' }).waitFor();
    await assertAccessible(page, 'profile, Discord not linked');
    // The password first (a wrong one is said on its field), then to Discord's consent page (the stand-in agrees at
    // once) and back to the profile.
    await card.getByRole('button', { name: 'Link a Discord account' }).click();
    const password = card.getByLabel('Your password');
    await password.fill('not my password');
    await card.getByRole('button', { name: 'Continue to Discord' }).click();
    await card.getByText('The password is wrong').waitFor();
    await assertAccessible(page, 'profile, linking asks for the password');
    await password.fill(player.password);
    const toDiscord = page.waitForRequest((request) => request.url().startsWith(`${standIn.url}/oauth2/authorize?`));
    const begun = page.waitForResponse((response) => response.url() === `${origin}/api/home/discord`);
    await card.getByRole('button', { name: 'Continue to Discord' }).click();
    // The flow's cookie: out of scripts' reach, sent back on Discord's redirect, only to the Discord routes.
    const setCookie = (await (await begun).headerValue('set-cookie')) ?? '';
    assert.match(setCookie, /^discord_browser=[\w-]{43}; Path=\/api\/auth\/discord; Max-Age=720; HttpOnly; SameSite=Lax$/);
    await toDiscord;
    await page.waitForURL(`${origin}/home`);
    await card.getByText('creeperqueen').waitFor();
    const flowCookies = async () => (await page.context().cookies()).filter((cookie) => cookie.name === 'discord_browser');
    assert.deepEqual(await flowCookies(), [], 'the cookie is cleared when the link is done');
    const avatar = card.getByRole('img', { name: 'Discord avatar of creeperqueen' });
    await avatar.waitFor();
    assert.ok(await avatar.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0), 'the avatar shows');
    assert.ok(avatarRequests.some((url) => url.startsWith(`${CDN}/avatars/${discord.id}/${discord.avatar}.png`)));
    await assertAccessible(page, 'profile, Discord linked');

    // Log out, then back in with Discord: the service sends the browser to /discord with a one-time code.
    await page.getByRole('button', { name: 'Log out', exact: true }).click();
    await page.waitForURL(`${origin}/login`);
    await assertAccessible(page, 'login page with Discord');
    const exchanges: string[] = [];
    page.on('request', (request) => request.url().endsWith('/api/auth/discord/exchange') && exchanges.push(request.url()));
    await page.getByRole('link', { name: 'Log in with Discord' }).click();
    await page.waitForURL(`${origin}/home`);
    assert.equal(exchanges.length, 1);
    assert.deepEqual(await flowCookies(), [], 'the cookie is cleared when the login is done');
    const token = await page.evaluate(() => localStorage.getItem('skinservice.token'));
    assert.equal((await service.call('GET', '/api/home', { token: token! })).body.data.Username, player.username);
    // The one-time code left the address bar at once: the history has no page with it.
    await page.goBack();
    assert.ok(!page.url().includes('code='), page.url());
    await page.goForward();
    await page.waitForURL(`${origin}/home`);

    // Unlink, after the confirmation in the page.
    await card.getByRole('button', { name: 'Unlink Discord' }).click();
    const confirmation = card.getByRole('alertdialog');
    await confirmation.getByRole('button', { name: 'Cancel' }).click();
    assert.equal(
      (await service.call('GET', '/api/home', { token: token! })).body.data.Discord_integration,
      true,
      'a cancel changes nothing',
    );
    await card.getByRole('button', { name: 'Unlink Discord' }).click();
    await confirmation.getByRole('button', { name: 'Unlink Discord' }).click();
    await card.getByText('Your Discord account is unlinked').waitFor();
    await card.getByRole('button', { name: 'Link a Discord account' }).waitFor();
    assert.equal((await service.call('GET', '/api/home', { token: token! })).body.data.Discord_integration, false);
  });

  it(
    'says so when the Discord account is linked to nobody, or when the player cancels on Discord',
    { skip: skipReason ?? false },
    async () => {
      const { page } = await openPage();
      standIn.signIn(discordUser());
      await page.goto(`${origin}/login`);
      await page.getByRole('link', { name: 'Log in with Discord' }).click();
      await page.waitForURL(`${origin}/login?discord=not-linked`);
      await page.getByText('That Discord account is not linked to any account here').waitFor();
      assert.equal(await page.evaluate(() => localStorage.getItem('skinservice.token')), null);
      await assertAccessible(page, 'login page, Discord account not linked');

      standIn.mode = 'deny';
      try {
        await page.getByRole('link', { name: 'Log in with Discord' }).click();
        await page.waitForURL(`${origin}/discord?problem=denied`);
      } finally {
        standIn.mode = 'approve';
      }
      await page.getByText('You did not allow it on Discord, so nothing was changed.').waitFor();
      await assertAccessible(page, 'Discord problem page');
      await page.getByRole('link', { name: 'Back to the login page' }).click();
      await page.waitForURL(`${origin}/login`);
    },
  );

  it("shows a player's Discord account in the admin console, where an admin unlinks it", { skip: skipReason ?? false }, async () => {
    const player = await service.registerPlayer();
    const discord = discordUser({ username: 'redstonerider' });
    standIn.signIn(discord);
    const begun = await service.call('POST', '/api/home/discord', { token: player.token, body: { password: player.password } });
    // The player's browser at Discord and back, with the cookie the beginning set (the pages part is the test above).
    const cookie = String(begun.headers['set-cookie']).split(';')[0]!;
    const back = await fetch(begun.body.url, { redirect: 'manual' });
    const callback = new URL(back.headers.get('location')!);
    const linked = await service.call('GET', callback.pathname + callback.search, { headers: { cookie } });
    assert.equal(linked.headers.location, `${origin}/home`);

    const { page } = await openPage();
    await page.goto(`${origin}/login`);
    await page.evaluate((value) => localStorage.setItem('skinservice.token', value), await service.ownerToken());
    await page.goto(`${origin}/admin?tab=users`);
    const row = page.getByRole('row').filter({ hasText: player.username });
    await row.getByText('redstonerider').waitFor();
    await row.getByRole('img', { name: 'Discord avatar of redstonerider' }).waitFor();
    await row.getByRole('link', { name: player.username }).click();
    const editor = page.getByRole('dialog').getByRole('group', { name: 'Discord' });
    await editor.getByText('redstonerider').waitFor();
    await assertAccessible(page, 'user editor with a Discord account');
    await editor.getByRole('button', { name: 'Unlink Discord' }).click();
    await editor.getByRole('alertdialog').getByRole('button', { name: 'Unlink Discord' }).click();
    await editor.getByText('No Discord account linked.').waitFor();
    assert.equal((await service.call('GET', '/api/home', { token: player.token })).body.data.Discord_integration, false);
  });
});
