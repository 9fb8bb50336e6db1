// No page is wider than a phone (issue 38, item 4), in a real browser (Debian's Chromium) at 360 and 390 px, in
// English, Russian and Chinese: every page of the one page list (src/shared/pages.ts), logged out and logged in as
// an owner with a 16-character name and a 68-character mail address, with every fold of the profile opened (the
// CustomSkinLoader file path), every console section and the user editor, and the confirm page right after
// registering such an address (its "No mail?" card names it). The pages do not depend on the database: on SQLite.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { LANGUAGES } from '../../src/i18n/languages.ts';
import { PAGE_PATHS } from '../../src/shared/pages.ts';
import { SECTIONS } from '../../web/src/pages/admin/sections.ts';
import { browserMissing, logInWithToken, openWatchedPage, screenshot, servePagesToBrowser } from '../support/browser.ts';
import type { TestService } from '../support/service.ts';

const skipReason = browserMissing();
const GRAVIT_TOKEN = 'launchserver-shared-secret-0123';
const WIDTHS = [360, 390];
const LONG_NAME = 'Sixteen_Chars_16';
/** A 68-character mail address without a space, as a player registered one; `tag` (one letter) makes it unique. */
const longMail = (tag: string) => `maximilian.longname.the.third.${tag}@mail.subdomain.example-community.org`;

describe('every page within a phone’s width [sqlite]', () => {
  let service: TestService;
  let browser: Browser;
  let origin: string;
  let close: (() => Promise<void>) | undefined;
  let token = '';
  let userId = 0;
  before(async () => {
    if (skipReason) return;
    ({ service, browser, origin, close } = await servePagesToBrowser('sqlite', GRAVIT_TOKEN));
    assert.equal(longMail('x').length, 68);
    const player = await service.registerPlayer({ username: LONG_NAME, mail: longMail('x') });
    // An owner, so that every console section shows.
    await service.db.updateTable('users').set({ perms: 3 }).where('username', '=', LONG_NAME).execute();
    userId = (await service.db.selectFrom('users').select('id').where('username', '=', LONG_NAME).executeTakeFirstOrThrow()).id;
    token = player.token;
  });
  after(() => close?.());

  /** The page once drawn: its heading, and nothing more on the way. */
  const settled = async (page: Page) => {
    await page.locator('main h1').first().waitFor();
    await page.waitForLoadState('networkidle');
  };
  /** How much wider than the window the page is (0: it fits). */
  const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

  for (const language of LANGUAGES) {
    for (const width of WIDTHS) {
      it(`${language}, ${width} px: no page is wider than the window`, { skip: skipReason ?? false }, async () => {
        const wide: string[] = [];
        const measure = async (page: Page, what: string) => {
          await settled(page);
          const extra = await overflow(page);
          if (extra > 0) {
            wide.push(`${what}: ${extra} px too wide`);
            await screenshot(page, `page-widths-${language}-${width}-${what.replace(/\W+/g, '_')}`);
          }
        };
        const viewport = { width, height: 760 };

        // Logged out, the browser speaking the language.
        const visitor = await openWatchedPage(browser, origin, { viewport, context: { locale: language, reducedMotion: 'reduce' } });
        for (const path of PAGE_PATHS) {
          await visitor.goto(`${origin}${path}`);
          await measure(visitor, `logged out ${path}`);
        }
        // Right after registering a long address: the confirm page names it in its "No mail?" card.
        await visitor.goto(`${origin}/register`);
        await settled(visitor);
        await visitor
          .locator('main input[type=email]')
          .fill(longMail(String(LANGUAGES.indexOf(language) * WIDTHS.length + WIDTHS.indexOf(width))));
        for (const field of await visitor.locator('main input[type=password]').all()) await field.fill('a long good password 42');
        await visitor.locator('main form button[type=submit]').first().click();
        await visitor.waitForURL(`${origin}/register/confirm`);
        await visitor.getByText('maximilian.longname.the.third', { exact: false }).first().waitFor();
        await measure(visitor, 'confirm page after registering');
        await visitor.context().close();

        // Logged in: the account speaks the language.
        assert.equal((await service.call('PATCH', '/api/home', { token, body: { language } })).status, 200);
        const page = await openWatchedPage(browser, origin, { viewport, context: { locale: language, reducedMotion: 'reduce' } });
        await logInWithToken(page, origin, token);
        for (const path of PAGE_PATHS) {
          await page.goto(`${origin}${path}`);
          await measure(page, `logged in ${path}`);
        }
        // The profile with every fold open (the launcher how-tos, CustomSkinLoader's file path among them).
        await page.goto(`${origin}/home`);
        await page.locator('nav.parts-nav').waitFor();
        const folds = page.locator('main details');
        for (let index = 0; index < (await folds.count()); index += 1) {
          const fold = folds.nth(index);
          if ((await fold.getAttribute('open')) === null) await fold.locator('summary').click();
        }
        await measure(page, 'the profile, every fold open');
        if (language === 'en' && width === 360) await screenshot(page, 'page-widths-profile-360');
        // Every console section, and the user editor of the long-named player.
        for (const { id } of SECTIONS) {
          await page.goto(`${origin}/admin?tab=${id}`);
          await page.locator('main section').first().waitFor();
          await measure(page, `console ${id}`);
        }
        await page.goto(`${origin}/admin?tab=users&user=${userId}`);
        await page.getByRole('dialog').getByRole('heading', { level: 3 }).first().waitFor();
        await measure(page, 'console user editor');
        await page.context().close();

        assert.deepEqual(wide, [], `${language} at ${width} px`);
      });
    }
  }
});
