// The Friends card of the profile (contract section 25, FRIENDS=true) in a real browser (Debian's Chromium): a player
// without Minecraft 26.2 sees the requests others sent and answers them, sends one by name, takes one back and removes a
// friend, by keyboard, on a 360 px phone, in both themes and three languages; the game sees the same lists. Without
// FRIENDS the card is not there. The pages do not depend on the database: one suite, on SQLite.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { assertAccessibleInBothThemes } from '../support/accessibility.ts';
import { browserMissing, logInWithToken, openWatchedPage, screenshot, servePagesToBrowser } from '../support/browser.ts';
import { randomAddress, type TestService } from '../support/service.ts';

const skipReason = browserMissing();
const skip = skipReason ?? false;
const GRAVIT_TOKEN = 'launchserver-shared-secret-0123';
const NARROW = { width: 360, height: 740 };

describe('the Friends card of the profile [sqlite]', () => {
  let service: TestService;
  let browser: Browser;
  let origin: string;
  let close: (() => Promise<void>) | undefined;
  before(async () => {
    if (skipReason) return;
    ({ service, browser, origin, close } = await servePagesToBrowser('sqlite', GRAVIT_TOKEN, undefined, { friends: true }));
  });
  after(() => close?.());

  const playerPage = async (language = 'en') => {
    const player = await service.registerPlayer();
    assert.equal((await service.call('PATCH', '/api/home', { token: player.token, body: { language } })).status, 200);
    const page = await openWatchedPage(browser, origin, { viewport: NARROW, context: { reducedMotion: 'reduce' } });
    await logInWithToken(page, origin, player.token);
    return { page, player };
  };
  const ask = async (from: { token: string }, name: string) =>
    assert.equal((await service.call('POST', '/api/home/friends', { token: from.token, body: { name } })).status, 200);
  /** Presses Tab until `target` has the focus (at most 80 times), then Enter: the keyboard's way to a button. */
  const pressByKeyboard = async (page: Page, name: string) => {
    const target = page.getByRole('button', { name, exact: true });
    await target.waitFor();
    await target.focus();
    assert.ok(await target.evaluate((element) => element === document.activeElement), `${name} takes the focus`);
    await page.keyboard.press('Enter');
  };
  const fitsWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

  it(
    'answers a request, sends one by name, takes one back and removes a friend, by keyboard at 360 px, in both themes',
    { skip },
    async () => {
      const { page, player } = await playerPage();
      const carol = await service.registerPlayer();
      const alex = await service.registerPlayer();
      await ask(carol, player.username);
      await page.goto(`${origin}/home#game`);
      const card = page.locator('section.card.friends');
      await card.getByRole('heading', { name: 'Friends', exact: true }).waitFor();
      await card.getByRole('list', { name: 'Requests received (1)' }).getByText(carol.username).waitFor();
      assert.ok(await fitsWidth(page), 'no sideways scrolling at 360 px');
      await assertAccessibleInBothThemes(page, 'a request waiting');
      await screenshot(page, 'friends-request', card);

      await pressByKeyboard(page, `Accept ${carol.username}'s request`);
      await card.getByText(`You and ${carol.username} are friends now`).waitFor();
      const friends = card.getByRole('list', { name: 'Friends (1)' });
      await friends.getByText(carol.username).waitFor();
      assert.equal(await friends.locator('small').innerText(), 'offline');
      // The game sees it, and what the friend is doing shows on the page.
      const login = await service.call('POST', '/api/yggdrasil/authserver/authenticate', {
        body: { username: carol.username, password: carol.password },
        ip: randomAddress(),
      });
      const presence = await service.call('POST', '/api/yggdrasil/minecraftservices/presence', {
        token: login.body.accessToken,
        body: { status: 'PLAYING_SERVER' },
      });
      assert.equal(presence.status, 200);
      await page.reload();
      await card.getByRole('list', { name: 'Friends (1)' }).getByText('playing on a server').waitFor();

      // A request by name, typed and sent with Enter.
      const nameField = card.getByLabel('Player name');
      await nameField.focus();
      await page.keyboard.type(alex.username);
      await page.keyboard.press('Enter');
      await card.getByText(`Request sent to ${alex.username}`).waitFor();
      await card.getByRole('list', { name: 'Requests sent (1)' }).getByText(alex.username).waitFor();
      assert.equal(await nameField.inputValue(), '', 'the field is empty again');
      // Oneself: refused in words, nothing changed.
      await nameField.fill(player.username);
      await page.keyboard.press('Enter');
      await card.getByText('That is one of your own profiles: you cannot add yourself as a friend').waitFor();
      await assertAccessibleInBothThemes(page, 'friends, a request sent and a refusal');
      assert.ok(await fitsWidth(page));
      await screenshot(page, 'friends-lists', card);

      await pressByKeyboard(page, `Take back your request to ${alex.username}`);
      await card.getByText(`Request to ${alex.username} taken back`).waitFor();
      assert.equal(await card.getByRole('list', { name: /Requests sent/ }).count(), 0);
      await pressByKeyboard(page, `Remove ${carol.username} from your friends`);
      // It asks first, with the confirm button focused: Escape keeps the friend, Enter removes.
      const question = card.getByRole('alertdialog', { name: `Remove ${carol.username}` });
      await question.waitFor();
      await page.keyboard.press('Escape');
      await question.waitFor({ state: 'detached' });
      await page.waitForFunction(
        (label) => document.activeElement?.getAttribute('aria-label') === label,
        `Remove ${carol.username} from your friends`,
      );
      await page.keyboard.press('Enter');
      await question.waitFor();
      await page.keyboard.press('Enter');
      await card.getByText(`${carol.username} removed from your friends`).waitFor();
      await card.getByText('No friends yet: send a request by name below.').waitFor();
      // The focus is on the card's heading, not lost with the button.
      assert.equal(await page.evaluate(() => document.activeElement?.id), 'friends-title');
      const lists = (await service.call('GET', '/api/home/friends', { token: carol.token })).body.data[0];
      assert.deepEqual([lists.friends, lists.incoming, lists.outgoing], [[], [], []]);
      await page.close();
    },
  );

  it('says it all in Russian and Chinese, and declines by keyboard', { skip }, async () => {
    const words = {
      ru: { title: 'Друзья', received: 'Полученные заявки (1)', decline: 'Отклонить заявку', declined: 'отклонена' },
      'zh-CN': { title: '好友', received: '收到的请求（1）', decline: '拒绝', declined: '已拒绝' },
    };
    for (const [language, expected] of Object.entries(words)) {
      const { page, player } = await playerPage(language);
      const other = await service.registerPlayer();
      await ask(other, player.username);
      await page.goto(`${origin}/home#game`);
      const card = page.locator('section.card.friends');
      await card.getByRole('heading', { name: expected.title, exact: true }).waitFor();
      await card.getByRole('list', { name: expected.received }).waitFor();
      assert.ok(await fitsWidth(page), `${language}: fits 360 px`);
      await assertAccessibleInBothThemes(page, `${language} card`);
      const decline = card.getByRole('button', { name: new RegExp(expected.decline) });
      await decline.focus();
      await page.keyboard.press('Enter');
      await card.getByText(new RegExp(expected.declined)).waitFor();
      await page.close();
    }
  });
});

describe('without FRIENDS [sqlite]', () => {
  it('shows no Friends card', { skip }, async () => {
    const { service, browser, origin, close } = await servePagesToBrowser('sqlite', GRAVIT_TOKEN);
    try {
      const player = await service.registerPlayer();
      const page = await openWatchedPage(browser, origin, { viewport: NARROW });
      await logInWithToken(page, origin, player.token);
      await page.goto(`${origin}/home#game`);
      await page.getByRole('heading', { name: 'Game', exact: true }).waitFor();
      await page.getByRole('heading', { name: 'App passwords' }).waitFor();
      assert.equal(await page.locator('section.card.friends').count(), 0);
      await page.close();
    } finally {
      await close();
    }
  });
});
