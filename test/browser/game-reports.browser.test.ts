// The console's game reports in a real browser (Debian's Chromium) at 360 px: a name and a chat report the game sent
// are listed with the chat message and its verification, pass axe-core's check in both themes, fit the width, and
// are closed by keyboard alone (warn with a message; dismiss); the closed list says who did what.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { accessibilityProblems } from '../support/accessibility.ts';
import { describeEachDatabase } from '../support/databases.ts';
import { browserMissing, logInWithToken, openWatchedPage, screenshot, servePagesToBrowser } from '../support/browser.ts';
import type { TestService } from '../support/service.ts';

const skipReason = browserMissing();
const NARROW = { width: 360, height: 800 };
const dashless = (uuid: string) => uuid.replace(/-/g, '');

describeEachDatabase('game reports in the console', (kind) => {
  let service: TestService;
  let browser: Browser;
  let origin: string;
  let close: (() => Promise<void>) | undefined;
  before(async () => {
    if (skipReason) return;
    ({ service, browser, origin, close } = await servePagesToBrowser(kind, 'launchserver-shared-secret-0123'));
  });
  after(() => close?.());

  const player = async () => {
    const registered = await service.registerPlayer();
    const uuid = (await service.call('GET', '/api/home', { token: registered.token })).body.data.Uuid as string;
    const login = await service.call('POST', '/api/yggdrasil/authserver/authenticate', {
      body: { username: registered.mail, password: registered.password },
    });
    return { ...registered, uuid, accessToken: login.body.accessToken as string };
  };
  const report = async (from: { accessToken: string }, about: { uuid: string }, type: 'USERNAME' | 'CHAT') => {
    const body = {
      version: 1,
      id: dashless(randomUUID()),
      reportType: type,
      report: {
        opinionComments: 'Rude all evening',
        ...(type === 'CHAT' && {
          reason: 'HARASSMENT_OR_BULLYING',
          evidence: {
            messages: [
              {
                index: 0,
                profileId: dashless(about.uuid),
                sessionId: dashless(randomUUID()),
                timestamp: new Date().toISOString(),
                salt: 42,
                lastSeen: [],
                message: 'an unsigned insult',
                signature: null,
                messageReported: true,
              },
            ],
          },
        }),
        reportedEntity: { profileId: dashless(about.uuid) },
        createdTime: new Date().toISOString(),
      },
      clientInfo: { clientVersion: '1.21.11', locale: 'en-US' },
      thirdPartyServerInfo: { address: 'play.example.org' },
    };
    const sent = await service.call('POST', '/api/yggdrasil/minecraftservices/player/report', {
      headers: { authorization: `Bearer ${from.accessToken}` },
      body,
    });
    assert.equal(sent.status, 204);
  };
  const fitsWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);

  it('lists the reports with their messages and closes them by keyboard at 360 px', { skip: skipReason ?? false }, async () => {
    const [steve, alex] = [await player(), await player()];
    await report(steve, alex, 'USERNAME');
    await report(steve, alex, 'CHAT');
    const page = await openWatchedPage(browser, origin, { viewport: NARROW });
    await logInWithToken(page, origin, await service.ownerToken());
    await page.goto(`${origin}/admin?tab=reports`);
    const nameReport = page.getByRole('article', { name: `${steve.username} reported the name ${alex.username}` });
    const chatReport = page.getByRole('article', { name: `${steve.username} reported what ${alex.username} wrote` });
    await nameReport.waitFor();
    await chatReport.getByText('an unsigned insult').waitFor();
    await chatReport.getByText('✗ not signed').waitFor();
    await chatReport.getByText('No reported message verified').waitFor();
    assert.ok(await fitsWidth(page), 'nothing wider than the screen');
    assert.deepEqual(await accessibilityProblems(page), [], 'light');
    await page.emulateMedia({ colorScheme: 'dark' });
    assert.deepEqual(await accessibilityProblems(page), [], 'dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await screenshot(page, `${kind}-admin-game-reports-phone`);

    // Keyboard only: choose "Warn by mail", type the message, submit with Enter.
    await nameReport.getByLabel('Action').focus();
    await page.keyboard.press('ArrowDown');
    await nameReport.getByLabel('Message to the player (optional)').waitFor();
    await page.keyboard.press('Tab');
    await page.keyboard.type('Please change your name');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await nameReport.waitFor({ state: 'detached' });
    await page.getByText('Report closed').waitFor();

    await chatReport.getByRole('button', { name: 'Dismiss' }).focus();
    await page.keyboard.press('Enter');
    await chatReport.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Closed' }).click();
    await page.getByText(/Warn by mail by /).waitFor();
    await page.getByText(/Dismiss by /).waitFor();
    assert.ok(await fitsWidth(page));
  });
});
