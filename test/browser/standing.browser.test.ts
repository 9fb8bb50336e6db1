// Standing in the game in a real browser (contract section 24): the player's profile shows a ban that holds, with the
// game's reason in the page's language and its end, at 360 px in both themes (the screenshots of docs/game.md), and
// the block list worked by keyboard (DOCS_SCREENSHOTS=1 copies the ban's screenshots to docs/images); the console's user editor bans with a reason and a duration preset and lifts
// the ban; the console's blocked servers section blocks and unblocks a server.
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { accessibilityProblems } from '../support/accessibility.ts';
import { browserMissing, DESKTOP, logInWithToken, openWatchedPage, screenshot, servePagesToBrowser } from '../support/browser.ts';
import { describeEachDatabase } from '../support/databases.ts';
import type { TestService } from '../support/service.ts';

const skipReason = browserMissing();
const NARROW = { width: 360, height: 800 };
const DAY = 86400;
const DOCS_IMAGES = join(import.meta.dirname, '../../docs/images');

describeEachDatabase('standing in the game in a browser', (kind) => {
  let service: TestService;
  let browser: Browser;
  let origin: string;
  let owner: string;
  let close: (() => Promise<void>) | undefined;
  before(async () => {
    if (skipReason) return;
    ({ service, browser, origin, close } = await servePagesToBrowser(kind, 'launchserver-shared-secret-0123'));
    owner = await service.ownerToken();
  });
  after(() => close?.());

  const idOf = async (username: string) =>
    (await service.db.selectFrom('users').select('id').where('username', '=', username).executeTakeFirstOrThrow()).id;
  const openAs = async (token: string, path: string, viewport = NARROW): Promise<Page> => {
    const page = await openWatchedPage(browser, origin, { viewport });
    await logInWithToken(page, origin, token);
    await page.goto(`${origin}${path}`);
    return page;
  };
  const assertAccessible = async (page: Page, what: string, shot?: string) => {
    for (const theme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: theme });
      assert.deepEqual(await accessibilityProblems(page), [], `${what}, ${theme}`);
      if (shot) {
        const card = page.getByRole('region', { name: /banned|заблокированы/ });
        await screenshot(page, `${kind}-${shot}-${theme}`, card);
        if (kind === 'sqlite' && process.env.DOCS_SCREENSHOTS === '1') {
          mkdirSync(DOCS_IMAGES, { recursive: true });
          copyFileSync(
            join(import.meta.dirname, `../../test-output/screenshots/${kind}-${shot}-${theme}.png`),
            join(DOCS_IMAGES, `${shot}-${theme}.png`),
          );
        }
      }
    }
    await page.emulateMedia({ colorScheme: 'light' });
  };

  it(
    'the profile shows a ban with its reason and end, in the page’s language, at 360 px in both themes',
    { skip: skipReason ?? false },
    async () => {
      const player = await service.registerPlayer();
      const expires = Math.floor(Date.now() / 1000) + 7 * DAY;
      const banned = await service.call('POST', `/api/admin/user/${player.username}/bans`, {
        token: owner,
        body: { scope: 'multiplayer', reason: 'HATE_SPEECH', message: 'Insults in chat', expires },
      });
      assert.equal(banned.status, 201);
      const page = await openAs(player.token, '/home');
      const card = page.getByRole('region', { name: 'You are banned' });
      await card.waitFor();
      const text = await card.innerText();
      assert.match(text, /You may not play online/);
      assert.match(text, /Reason: Hate speech or discrimination/);
      assert.match(text, /The administrator wrote: Insults in chat/);
      assert.match(text, /The ban ends on/);
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(width <= NARROW.width, `no sideways scrolling at 360 px (${width})`);
      await page.waitForLoadState('networkidle');
      await assertAccessible(page, 'profile with a ban', 'profile-ban');

      // The same ban in Russian, the account's language.
      await service.call('PATCH', '/api/home', { token: player.token, body: { language: 'ru' } });
      await page.reload();
      const russian = page.getByRole('region', { name: 'Вы заблокированы' });
      await russian.waitFor();
      assert.match(await russian.innerText(), /Причина: Разжигание ненависти или дискриминация/);

      // No ban: no card.
      const other = await service.registerPlayer();
      const clean = await openAs(other.token, '/home');
      await clean.getByRole('heading', { name: 'Blocked players' }).waitFor();
      await clean.waitForLoadState('networkidle');
      assert.equal(await clean.getByRole('region', { name: 'You are banned' }).count(), 0);
    },
  );

  it('a player blocks another by name and unblocks them, by keyboard', { skip: skipReason ?? false }, async () => {
    const player = await service.registerPlayer();
    const other = await service.registerPlayer();
    const page = await openAs(player.token, '/home');
    const card = page.getByRole('region', { name: 'Blocked players' });
    await card.getByText('You have blocked nobody.').waitFor();
    await card.getByLabel('Player name').focus();
    await page.keyboard.type('nobody_by_this_name');
    await page.keyboard.press('Enter');
    await card.getByRole('alert').waitFor();
    await card.getByLabel('Player name').fill('');
    await card.getByLabel('Player name').focus();
    await page.keyboard.type(other.username);
    await page.keyboard.press('Enter');
    await card.getByRole('listitem').filter({ hasText: other.username }).waitFor();
    const blocks = await service.call('GET', '/api/home/blocks', { token: player.token });
    assert.deepEqual(
      blocks.body.data.map((entry: { name: string }) => entry.name),
      [other.username],
    );
    await card.getByRole('button', { name: `Unblock ${other.username}` }).focus();
    await page.keyboard.press('Enter');
    await card.getByText('You have blocked nobody.').waitFor();
    assert.deepEqual((await service.call('GET', '/api/home/blocks', { token: player.token })).body.data, []);
  });

  it(
    'the user editor bans for a preset duration with a reason, switches the chat off, and lifts the ban',
    { skip: skipReason ?? false },
    async () => {
      const player = await service.registerPlayer();
      const page = await openAs(owner, `/admin?tab=users&user=${await idOf(player.username)}`, DESKTOP);
      const bans = page.getByRole('region', { name: 'Bans the game shows' });
      await bans.getByText('No bans.').waitFor();
      await bans.getByLabel('Reason (the game shows it)').selectOption('SPAM_OR_ADVERTISING');
      await bans.getByLabel('For', { exact: true }).selectOption('1');
      const before = Math.floor(Date.now() / 1000);
      await bans.getByRole('button', { name: 'Add the ban', exact: true }).click();
      await bans.getByText(`${player.username} is banned; they are mailed.`).waitFor();
      await bans.getByRole('listitem').filter({ hasText: 'Multiplayer: Spam or advertising' }).waitFor();
      const [ban] = (await service.call('GET', `/api/admin/user/${player.username}/bans`, { token: owner })).body.data;
      assert.equal(ban.scope, 'multiplayer');
      assert.ok(Math.abs(ban.expires - (before + DAY)) < 60, 'one day from now');
      await page.waitForLoadState('networkidle');
      assert.deepEqual(await accessibilityProblems(page), [], 'user editor with a ban');

      // A custom end, and `other` needs words.
      await bans.getByLabel('Reason (the game shows it)').selectOption('other');
      await bans.getByLabel('For', { exact: true }).selectOption('custom');
      await bans.getByLabel('Ends at').waitFor();

      await bans.getByRole('button', { name: 'Lift the ban for Spam or advertising' }).click();
      await bans.getByRole('button', { name: 'Lift the ban', exact: true }).click();
      await bans.getByText(`The ban of ${player.username} is lifted.`).waitFor();
      const [lifted] = (await service.call('GET', `/api/admin/user/${player.username}/bans`, { token: owner })).body.data;
      assert.equal(lifted.active, false);

      // The chat switch, in the editor's form.
      const chat = page.getByLabel('Online chat in the game (off: the game keeps the player out of chat)');
      await chat.uncheck();
      const form = page.locator('form').filter({ has: chat });
      await form.getByRole('button', { name: 'Save' }).click();
      await form.getByText('Saved.').waitFor();
      const detail = (await service.call('GET', `/api/admin/user/${player.username}`, { token: owner })).body.data;
      assert.equal(detail.Chat, false);
    },
  );

  it('the console blocks and unblocks a game server', { skip: skipReason ?? false }, async () => {
    const page = await openAs(owner, '/admin?tab=servers');
    const section = page.getByRole('region', { name: 'Blocked game servers' });
    await section.getByLabel('Server address').fill('mc.example.com:25565');
    await section.getByRole('button', { name: 'Block' }).click();
    await section.getByRole('alert').waitFor();
    await section.getByLabel('Server address').fill('*.Griefers.example');
    await section.getByRole('button', { name: 'Block' }).click();
    await section.getByRole('listitem').filter({ hasText: '*.griefers.example' }).waitFor();
    await page.waitForLoadState('networkidle');
    for (const theme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: theme });
      assert.deepEqual(await accessibilityProblems(page), [], `blocked servers, ${theme}`);
    }
    await section.getByRole('button', { name: 'Unblock *.griefers.example' }).click();
    await section.getByText('*.griefers.example is unblocked.').waitFor();
    const hashes = await (await fetch(`${origin}/api/yggdrasil/sessionserver/blockedservers`)).text();
    assert.equal(hashes, '');
  });
});
