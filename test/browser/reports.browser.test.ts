// The console's Reports section in a real browser, on a desktop and at 360 px: a pending publication approved from the
// review queue, a reported entry unpublished by keyboard with a reason, the section in Chinese, and axe-core's check
// in both themes.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { decodePng, encodePng } from '../../src/rendering/png.ts';
import { accessibilityProblems } from '../support/accessibility.ts';
import { describeEachDatabase } from '../support/databases.ts';
import { browserMissing, DESKTOP, logInWithToken, openWatchedPage, screenshot, servePagesToBrowser } from '../support/browser.ts';
import { fixture, skinFile } from '../support/fixtures.ts';
import type { TestService } from '../support/service.ts';

const skipReason = browserMissing();
const NARROW = { width: 360, height: 740 };
const VIEWPORTS = [
  ['desktop', DESKTOP],
  ['phone', NARROW],
] as const;

const uniqueSkin = (seed: number) => {
  const picture = decodePng(fixture('skins/classic.png'));
  picture.data.set([seed % 256, Math.floor(seed / 256) % 256, 11, 255], 0);
  return skinFile(`skin-${seed}`, encodePng(picture));
};

describeEachDatabase('the Reports console section in a browser', (kind) => {
  let service: TestService;
  let browser: Browser;
  let origin: string;
  let close: (() => Promise<void>) | undefined;
  let seed = 7000;
  before(async () => {
    if (skipReason) return;
    ({ service, browser, origin, close } = await servePagesToBrowser(kind, 'launchserver-shared-secret-0123', undefined, {
      libraryReview: true,
    }));
  });
  after(() => close?.());

  const openConsole = async (viewport: { width: number; height: number }, token: string): Promise<Page> => {
    const page = await openWatchedPage(browser, origin, { viewport });
    await logInWithToken(page, origin, token);
    await page.goto(`${origin}/admin?tab=reports`);
    return page;
  };
  const assertAccessible = async (page: Page, what: string) => {
    assert.deepEqual(await accessibilityProblems(page), [], `${what}, light`);
    await page.emulateMedia({ colorScheme: 'dark' });
    assert.deepEqual(await accessibilityProblems(page), [], `${what}, dark`);
    await page.emulateMedia({ colorScheme: 'light' });
  };
  const publish = async (token: string, name: string) => {
    const skin = (await service.upload('/api/home/skins', token, { name }, uniqueSkin(seed++))).body.data;
    return (await service.call('POST', `/api/home/skins/${skin.uuid}/publish`, { token, body: { source: 'original' } })).body.data;
  };

  for (const [device, viewport] of VIEWPORTS) {
    it(`${device}: approves a pending entry and unpublishes a reported one by keyboard`, { skip: skipReason ?? false }, async () => {
      const alice = await service.registerPlayer();
      const bob = await service.registerPlayer();
      const name = `Hoodie ${device}`;
      const entry = await publish(alice.token, name);
      assert.equal(entry.state, 'pending');

      const page = await openConsole(viewport, await service.ownerToken());
      const pendingItem = page.getByRole('listitem', { name: `Entry ${name} waiting for review` });
      await pendingItem.waitFor();
      await page.waitForLoadState('networkidle');
      await assertAccessible(page, `${device} reports and review`);
      if (device === 'desktop') await screenshot(page, `${kind}-admin-reports-review`);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      assert.ok(overflow <= 0, `no sideways scrolling (${overflow} px)`);
      await pendingItem.getByRole('button', { name: `Approve ${name}` }).focus();
      await page.keyboard.press('Enter');
      await page.getByText(`${name} is public now.`).waitFor();
      assert.equal((await service.call('GET', `/api/library/${entry.id}`)).status, 200);

      const reported = await service.call('POST', `/api/library/${entry.id}/reports`, {
        token: bob.token,
        body: { reason: 'copyright', message: 'Drawn by me' },
      });
      assert.equal(reported.status, 201);
      await page.reload();
      const item = page.getByRole('listitem', { name: `Report on ${name}` });
      await item.getByText('Drawn by me').waitFor();
      await item.getByRole('link', { name: bob.username }).waitFor();
      await item.getByRole('button', { name: `Unpublish ${name}` }).focus();
      await page.keyboard.press('Enter');
      const question = item.getByRole('alertdialog', { name: `Unpublish ${name}` });
      // The reason field has the focus: typed, then the confirm button reached by Tab.
      await page.keyboard.type('Not theirs');
      await assertAccessible(page, `${device} report question`);
      await page.keyboard.press('Tab');
      await page.keyboard.press('Enter');
      await page.getByText(`${name} unpublished.`).waitFor();
      assert.equal((await service.call('GET', `/api/library/${entry.id}`)).status, 404);
      await question.waitFor({ state: 'detached' });
      await item.waitFor({ state: 'detached' });

      await page.getByLabel('Show').selectOption('closed');
      await page
        .getByRole('listitem', { name: `Report on ${name}` })
        .getByText(/Unpublished by/)
        .waitFor();
    });
  }

  it(
    'lets an admin mark a player as needing no review, whose next publication is public at once',
    { skip: skipReason ?? false },
    async () => {
      const player = await service.registerPlayer();
      const { id } = await service.db.selectFrom('users').select('id').where('username', '=', player.username).executeTakeFirstOrThrow();
      const page = await openWatchedPage(browser, origin, { viewport: NARROW });
      await logInWithToken(page, origin, await service.ownerToken());
      await page.goto(`${origin}/admin?tab=users&user=${id}`);
      const editor = page.getByRole('dialog').getByRole('region', { name: `User ${player.username}` });
      await editor.getByLabel('Library publications need no review').check();
      await editor.getByRole('button', { name: 'Save user' }).click();
      await editor.getByText('Saved.', { exact: true }).waitFor();
      assert.equal((await publish(player.token, 'Trusted art')).state, 'public');
    },
  );

  it('speaks Chinese to a moderator whose account is in Chinese', { skip: skipReason ?? false }, async () => {
    const moderator = await service.registerPlayer();
    await service.db.updateTable('users').set({ perms: 1, language: 'zh-CN' }).where('username', '=', moderator.username).execute();
    const page = await openConsole(NARROW, moderator.token);
    await page.getByRole('heading', { name: '等待审核' }).waitFor();
    await page.getByRole('heading', { name: '举报', exact: true }).waitFor();
    assert.equal(await page.getByRole('button', { name: /^Remove/ }).count(), 0, 'no admin actions for a moderator');
    await assertAccessible(page, 'zh-CN reports');
  });
});
