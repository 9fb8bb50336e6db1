// The skin library's pages in a real browser (Debian's Chromium), contract section 19: browsing /library (cards drawn
// by the service's renders, search as you type, filters, sorting, pages, a 3D preview), saving to the wardrobe and
// removing the copy, reporting from a card, publishing from the wardrobe (a picture published already answered with a
// link to its entry) and withdrawing, and the profile's preview showing the worn cape as a cape or an elytra; at
// 360 px, by keyboard, in both themes and in English, Russian and Chinese. The pages do not depend on the database:
// on SQLite.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { decodePng, encodePng } from '../../src/rendering/png.ts';
import { accessibilityProblems } from '../support/accessibility.ts';
import { browserMissing, DESKTOP, logInWithToken, openWatchedPage, screenshot, servePagesToBrowser } from '../support/browser.ts';
import { capeFile, fixture, skinFile } from '../support/fixtures.ts';
import { imageCacheFigures } from '../support/image-metrics.ts';
import type { TestService } from '../support/service.ts';

const skipReason = browserMissing();
const skip = skipReason ?? false;
const GRAVIT_TOKEN = 'launchserver-shared-secret-0123';
const PHONE_360 = { width: 360, height: 760 };
const THEMES = ['light', 'dark'] as const;
const PAPER = { light: 'rgb(246, 247, 249)', dark: 'rgb(17, 20, 25)' };
/** What each language calls the page and a few of its parts. */
const WORDS = {
  en: { title: 'Skin library', search: 'Search by name', count: '27 entries', elytra: 'Show the cape as an elytra' },
  ru: { title: 'Библиотека скинов', search: 'Поиск по названию', count: '27 записей', elytra: 'Показать плащ как элитры' },
  'zh-CN': { title: '皮肤库', search: '按名称搜索', count: '27 个条目', elytra: '把披风显示为鞘翅' },
};

/** A skin picture nobody else has (one pixel of the unused corner differs). */
const uniqueSkin = (seed: number, model = 'classic') => {
  const picture = decodePng(fixture(`skins/${model}.png`));
  picture.data.set([seed % 256, Math.floor(seed / 256) % 256, 7, 255], 0);
  return skinFile(`skin-${seed}`, encodePng(picture));
};

describe('the skin library in a browser [sqlite]', () => {
  let service: TestService;
  let browser: Browser;
  let origin: string;
  let close: (() => Promise<void>) | undefined;
  let seed = 1;
  /** The publishers and what they published: 25 plain skins, a slim one, a cape. */
  let alice: { token: string; username: string };
  let bob: { token: string; username: string };
  const entries: Record<string, number> = {};

  const uploadSkin = async (token: string, name: string, model = 'classic') => {
    const reply = await service.upload('/api/home/skins', token, { name }, uniqueSkin(seed++, model));
    assert.equal(reply.status, 200, reply.body.msg);
    return reply.body.data as { uuid: string; digest: string };
  };
  const publish = async (token: string, what: 'skins' | 'capes', uuid: string, name: string) => {
    const reply = await service.call('POST', `/api/home/${what}/${uuid}/publish`, { token, body: { name, source: 'original' } });
    assert.equal(reply.status, 201, reply.body.msg);
    entries[name] = reply.body.data.id;
  };

  before(async () => {
    if (skipReason) return;
    ({ service, browser, origin, close } = await servePagesToBrowser('sqlite', GRAVIT_TOKEN, undefined, { userCapes: true }));
    alice = await service.registerPlayer();
    bob = await service.registerPlayer();
    // 20 publications a day per account: two publishers.
    for (let index = 1; index <= 19; index += 1)
      await publish(alice.token, 'skins', (await uploadSkin(alice.token, `Plain ${index}`)).uuid, `Plain ${index}`);
    for (let index = 20; index <= 24; index += 1)
      await publish(bob.token, 'skins', (await uploadSkin(bob.token, `Plain ${index}`)).uuid, `Plain ${index}`);
    await publish(alice.token, 'skins', (await uploadSkin(alice.token, 'Autumn Hoodie')).uuid, 'Autumn Hoodie');
    await publish(bob.token, 'skins', (await uploadSkin(bob.token, 'Slim Fox', 'slim')).uuid, 'Slim Fox');
    const cape = await service.upload('/api/home/capes', bob.token, { name: 'Red Cape' }, capeFile('cape'));
    assert.equal(cape.status, 200, cape.body.msg);
    await publish(bob.token, 'capes', cape.body.data.uuid, 'Red Cape');
    // Saved by two players: first when sorted by popularity.
    const fans = [await service.registerPlayer(), await service.registerPlayer()];
    for (const fan of fans)
      assert.equal((await service.call('POST', `/api/library/${entries['Slim Fox']}/save`, { token: fan.token, body: {} })).status, 201);
  });
  after(() => close?.());

  const openPage = (viewport = DESKTOP, locale = 'en') =>
    openWatchedPage(browser, origin, { viewport, context: { reducedMotion: 'reduce', locale } });
  const paper = (page: Page) => page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
  const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  /** The names on the cards shown, in order. */
  const cardNames = (page: Page) => page.locator('main .library-grid .library-card h3').allInnerTexts();
  const countSays = (page: Page, text: string) => page.locator('main [data-total]').filter({ hasText: text }).waitFor();

  it('shows visitors the cards drawn by the service, in three languages and both themes, at 360 px', { skip }, async () => {
    for (const language of ['en', 'ru', 'zh-CN'] as const) {
      const words = WORDS[language];
      const page = await openPage(PHONE_360, language);
      await page.goto(`${origin}/`);
      // Linked in the site's navigation, on every page.
      await page.getByRole('banner').getByRole('link', { name: words.title }).click();
      await page.waitForURL(`${origin}/library`);
      await page.getByRole('heading', { level: 1, name: words.title }).waitFor();
      await countSays(page, words.count);
      assert.equal((await cardNames(page)).length, 24, `${language}: a page of 24 cards`);
      // Each card's picture is the service's own render of the texture, by digest, and it loads.
      const pictures = await page
        .locator('main .library-card img')
        .evaluateAll((images) =>
          (images as HTMLImageElement[]).slice(0, 3).map((image) => ({ src: image.getAttribute('src') ?? '', alt: image.alt })),
        );
      for (const picture of pictures) assert.match(picture.src, /^\/api\/skin\/(body|cloak)\/[0-9a-f]{64}\?size=64&type=player$/);
      await page.waitForFunction(() =>
        [...document.querySelectorAll<HTMLImageElement>('main .library-card img')]
          .slice(0, 3)
          .every((image) => image.complete && image.naturalWidth > 0),
      );
      assert.equal(await overflow(page), 0, `${language}: no wider than a 360 px phone`);
      for (const theme of THEMES) {
        await page.emulateMedia({ colorScheme: theme });
        assert.equal(await paper(page), PAPER[theme]);
        assert.deepEqual(await accessibilityProblems(page), [], `${language} in the ${theme} theme`);
        if (language === 'en') await screenshot(page, `library-360-${theme}`);
      }
      await page.context().close();
    }
  });

  it('searches as the visitor types, filters, sorts and pages', { skip }, async () => {
    const page = await openPage();
    const searches: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname === '/api/library' && url.searchParams.has('q')) searches.push(url.searchParams.get('q')!);
    });
    await page.goto(`${origin}/library`);
    await countSays(page, '27 entries');
    // Typed letter by letter: one request once the typing pauses, not one per letter.
    await page.getByLabel('Search by name').pressSequentially('autumn', { delay: 40 });
    await countSays(page, '1 entry');
    assert.deepEqual(await cardNames(page), ['Autumn Hoodie']);
    assert.deepEqual(searches, ['autumn']);
    await page.getByLabel('Search by name').fill('');
    await countSays(page, '27 entries');
    // Filters: capes only; then slim skins.
    await page.getByLabel('Show').selectOption('cape');
    await countSays(page, '1 entry');
    assert.deepEqual(await cardNames(page), ['Red Cape']);
    assert.equal(await page.getByLabel('Model').isDisabled(), true, 'a cape has no model');
    await page.getByLabel('Show').selectOption('skin');
    await page.getByLabel('Model').selectOption('slim');
    await countSays(page, '1 entry');
    assert.deepEqual(await cardNames(page), ['Slim Fox']);
    await page.getByLabel('Model').selectOption('');
    await page.getByLabel('Show').selectOption('');
    // Sorted: the newest first, or the most saved.
    await countSays(page, '27 entries');
    assert.equal((await cardNames(page))[0], 'Red Cape');
    await page.getByLabel('Sort by').selectOption('popular');
    await page.waitForFunction(() => document.querySelector('main .library-card h3')?.textContent === 'Slim Fox');
    await page.locator('[data-entry-id]').filter({ hasText: 'Slim Fox' }).getByText('saved 2 times').waitFor();
    // Pages: 27 entries in two; the focus goes to the list's heading.
    await page.getByLabel('Sort by').selectOption('new');
    await page.getByText('Page 1 of 2').waitFor();
    await page.getByRole('button', { name: 'Next page' }).click();
    await page.getByText('Page 2 of 2').waitFor();
    await page.waitForFunction(() => document.querySelectorAll('main .library-card').length === 3);
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Entries');
    assert.equal(await page.getByRole('button', { name: 'Next page' }).isDisabled(), true);
    // A visitor may preview, but saving and reporting ask for a login.
    assert.equal(await page.getByRole('button', { name: /^Save / }).count(), 0);
    await page.getByRole('link', { name: 'Log in to save skins into your wardrobe and to report entries.' }).waitFor();
    await page.context().close();
  });

  it('lets a player preview in 3D, save to the wardrobe, remove the copy and report, by keyboard', { skip }, async () => {
    const carol = await service.registerPlayer();
    const page = await openPage(PHONE_360);
    await logInWithToken(page, origin, carol.token);
    await page.goto(`${origin}/library`);
    await page.getByLabel('Search by name').fill('autumn');
    await countSays(page, '1 entry');
    const card = page.locator(`[data-entry-id="${entries['Autumn Hoodie']}"]`);
    // The 3D preview, in a dialog that Escape closes, giving the focus back to its button.
    const previewButton = card.getByRole('button', { name: 'Preview Autumn Hoodie in 3D' });
    await previewButton.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Autumn Hoodie' });
    await dialog.locator('figure.preview[data-skin^="/textures/"]').waitFor();
    assert.deepEqual(await accessibilityProblems(page), []);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Preview Autumn Hoodie in 3D');
    // Save: the copy is in the wardrobe, the card says so and offers to remove it, after a reload too.
    await card.getByRole('button', { name: 'Save Autumn Hoodie to my wardrobe' }).click();
    await card.getByText('Autumn Hoodie is in your wardrobe now.').waitFor();
    await card.getByText('saved 1 time').waitFor();
    const wardrobe = async () =>
      (await service.call('GET', '/api/home/skins', { token: carol.token })).body.data.map((skin: { name: string }) => skin.name);
    assert.deepEqual(await wardrobe(), ['Autumn Hoodie']);
    await page.reload();
    await page.getByLabel('Search by name').fill('autumn');
    await card.getByText('In your wardrobe.').waitFor();
    await card.getByRole('button', { name: 'Remove my copy of Autumn Hoodie' }).click();
    await card.getByText('Your copy of Autumn Hoodie is removed from your wardrobe.').waitFor();
    assert.deepEqual(await wardrobe(), []);
    await card.getByRole('button', { name: 'Save Autumn Hoodie to my wardrobe' }).waitFor();
    // Report: a reason and a few words, confirmed in the dialog, and the report is in the moderators' queue.
    const reportButton = card.getByRole('button', { name: 'Report Autumn Hoodie' });
    await reportButton.click();
    const report = page.getByRole('dialog', { name: 'Report Autumn Hoodie' });
    await report.getByLabel("Copies someone else's work").check();
    await report.getByLabel('More details (optional)').fill('This is my own skin from 2019.');
    assert.deepEqual(await accessibilityProblems(page), []);
    assert.equal(await overflow(page), 0);
    await report.getByRole('button', { name: 'Send the report' }).click();
    await report.getByText('Thank you: the moderators will look at Autumn Hoodie.').waitFor();
    await report.getByRole('button', { name: 'Close' }).click();
    await report.waitFor({ state: 'hidden' });
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Report Autumn Hoodie');
    const moderator = await openPage();
    await logInWithToken(moderator, origin, await service.ownerToken());
    await moderator.goto(`${origin}/admin?tab=reports`);
    const queued = moderator.getByRole('listitem', { name: 'Report on Autumn Hoodie' });
    await queued.getByText('This is my own skin from 2019.').waitFor();
    await queued.getByRole('link', { name: carol.username }).waitFor();
    await moderator.context().close();
    // One's own entries offer neither saving nor reporting.
    const own = await openPage();
    await logInWithToken(own, origin, alice.token);
    await own.goto(`${origin}/library?entry=${entries['Autumn Hoodie']}`);
    const ownCard = own.locator('main section').first().locator('.library-card');
    await ownCard.getByText('Published by you.').waitFor();
    assert.equal(await ownCard.getByRole('button').count(), 1, 'only the preview');
    await own.context().close();
    await page.context().close();
  });

  it('loads the cards of a page from the browser cache on a second visit, and the service draws none again', { skip }, async () => {
    // Tall enough that no card waits for scrolling (the pictures load lazily).
    const page = await openPage({ width: 1280, height: 4000 });
    const picturesShown = async () => {
      await countSays(page, '27 entries');
      await page.waitForFunction(() =>
        [...document.querySelectorAll<HTMLImageElement>('main .library-card img')].every(
          (image) => image.complete && image.naturalWidth > 0,
        ),
      );
      return page.locator('main .library-card img').evaluateAll((images) => images.map((image) => image.getAttribute('src')));
    };
    /** Image requests the service answered so far: each is an answer-cache hit, a render-cache hit or a render. */
    const imagesServed = async () => {
      const figures = await imageCacheFigures(service);
      return figures.answerHits + figures.renderHits + figures.renderMisses;
    };
    await page.goto(`${origin}/library`);
    const first = await picturesShown();
    assert.equal(first.length, 24);
    const servedFirst = await imagesServed();
    await page.goto(`${origin}/`);
    await page.getByRole('banner').getByRole('link', { name: 'Skin library' }).click();
    assert.deepEqual(await picturesShown(), first, 'the same cards');
    assert.equal(await imagesServed(), servedFirst, 'no picture asked again');
    await page.context().close();
  });

  it('publishes from the wardrobe, links a picture published already to its entry, and withdraws', { skip }, async () => {
    for (const language of ['en', 'ru', 'zh-CN'] as const) {
      const dave = await service.registerPlayer();
      assert.equal((await service.call('PATCH', '/api/home', { token: dave.token, body: { language } })).status, 200);
      const picture = uniqueSkin(seed++);
      const mine = await service.upload('/api/home/skins', dave.token, { name: 'Dave skin' }, picture);
      const page = await openPage(PHONE_360, language);
      await logInWithToken(page, origin, dave.token);
      await page.goto(`${origin}/home`);
      const row = page.locator(`[data-skin-uuid="${mine.body.data.uuid}"]`);
      const publishButton = row.locator('.publish > button');
      await publishButton.waitFor();
      if (language !== 'en') {
        // The words are the language's own (the English ones are checked below).
        assert.notEqual(await publishButton.innerText(), 'Publish');
        assert.equal(await overflow(page), 0, `${language}: the wardrobe within 360 px`);
        await page.context().close();
        continue;
      }
      await row.getByRole('button', { name: 'Publish Dave skin to the library' }).click();
      const form = row.getByRole('form', { name: 'Publish Dave skin to the library' });
      // The form moves the focus to its name field once it is drawn (a task after the click).
      await page
        .waitForFunction(() => document.activeElement?.getAttribute('name') === 'name', null, { timeout: 5_000 })
        .catch(() => undefined);
      assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('name')), 'name', 'the name field has the focus');
      await form.getByLabel('Name in the library').fill('Dave Special');
      await form.getByLabel('Where it comes from').selectOption('derivative');
      assert.equal(await overflow(page), 0);
      assert.deepEqual(await accessibilityProblems(page), []);
      await form.getByRole('button', { name: 'Publish', exact: true }).click();
      await row.getByText('Dave Special is in the library now.').waitFor();
      const id = Number(
        new URL((await row.getByRole('link', { name: 'See it there' }).getAttribute('href'))!, origin).searchParams.get('entry'),
      );
      const entry = (await service.call('GET', `/api/library/${id}`)).body.data;
      assert.equal(entry.name, 'Dave Special');
      assert.equal(entry.source, 'derivative');
      await row.getByRole('link', { name: `entry ${id}` }).waitFor();

      // Someone else with the same picture: refused, with a link to the entry there is.
      const erin = await service.registerPlayer();
      const copy = await service.upload('/api/home/skins', erin.token, { name: 'Erin skin' }, picture);
      const other = await openPage();
      await logInWithToken(other, origin, erin.token);
      await other.goto(`${origin}/home`);
      const otherRow = other.locator(`[data-skin-uuid="${copy.body.data.uuid}"]`);
      await otherRow.getByRole('button', { name: 'Publish Erin skin to the library' }).click();
      await otherRow.getByRole('button', { name: 'Publish', exact: true }).click();
      await otherRow.getByText('This picture is in the library already.').waitFor();
      await otherRow.getByRole('link', { name: 'See that entry' }).click();
      await other.waitForURL(`${origin}/library?entry=${id}`);
      await other.getByRole('heading', { name: `Entry ${id}` }).waitFor();
      await other.locator('main section').first().getByRole('heading', { level: 3, name: 'Dave Special' }).waitFor();
      await other.context().close();

      // Withdrawn: gone from the library, and the wardrobe offers to publish it again.
      await row.getByRole('button', { name: 'Withdraw Dave skin from the library' }).click();
      await row.getByText('Dave Special is withdrawn from the library').waitFor();
      await row.getByRole('button', { name: 'Publish Dave skin to the library' }).waitFor();
      assert.equal((await service.call('GET', `/api/library/${id}`)).status, 404);
      await page.context().close();
    }
  });

  it('shows the worn cape on the back of the profile’s preview and, by a switch, as an elytra', { skip }, async () => {
    for (const language of ['en', 'ru', 'zh-CN'] as const) {
      const frank = await service.registerPlayer();
      assert.equal((await service.call('PATCH', '/api/home', { token: frank.token, body: { language } })).status, 200);
      await service.upload('/api/home/skins', frank.token, { name: 'Mine' }, uniqueSkin(seed++));
      const cape = await service.upload('/api/home/capes', frank.token, { name: 'Blue' }, capeFile('cape'));
      assert.equal(
        (await service.call('PATCH', '/api/home', { token: frank.token, body: { selected_cape: cape.body.data.uuid } })).status,
        200,
      );
      const page = await openPage(PHONE_360, language);
      await logInWithToken(page, origin, frank.token);
      await page.goto(`${origin}/home`);
      const preview = page.locator('figure.preview');
      await page.locator('figure.preview[data-back="cape"]').waitFor();
      assert.match((await preview.getAttribute('data-cape')) ?? '', new RegExp(`/api/skin/standart/cape/${cape.body.data.uuid}$`));
      const toggle = preview.getByLabel(WORDS[language].elytra);
      await toggle.focus();
      await page.keyboard.press('Space');
      await page.locator('figure.preview[data-back="elytra"]').waitFor();
      assert.equal(await toggle.isChecked(), true);
      assert.equal(await overflow(page), 0);
      for (const theme of THEMES) {
        await page.emulateMedia({ colorScheme: theme });
        assert.deepEqual(await accessibilityProblems(page), [], `${language}, ${theme}`);
        if (language === 'en') await screenshot(page, `profile-elytra-${theme}`, preview);
      }
      await page.keyboard.press('Space');
      await page.locator('figure.preview[data-back="cape"]').waitFor();
      await page.context().close();
    }
  });
});
