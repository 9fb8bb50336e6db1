// The front page in a real browser (Debian's Chromium), issue 31 item 1: the site's name, how to play in three steps
// with the game login's address (copied, and the link to drag into a launcher), a player in 3D that comes after the
// text (the default skin, or the newest skin worn here), in both themes, on a phone without sideways scrolling, with
// no accessibility findings, in three languages; the icons our renderer draws; and the page's bytes within the
// login page's budget before the 3D part, which comes after.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { accessibilityProblems } from '../support/accessibility.ts';
import {
  browserMissing,
  DESKTOP,
  LOGIN_PAGE_BUDGET,
  openWatchedPage,
  PHONE,
  screenshot,
  servePagesToBrowser,
  SITE_NAME,
} from '../support/browser.ts';
import { describeEachDatabase } from '../support/databases.ts';
import { skinFile } from '../support/fixtures.ts';
import { paintedPixels } from '../support/rendering.ts';
import { PUBLIC_URL, type TestService } from '../support/service.ts';
import { defaultSkin } from '../../src/rendering/default-skin.ts';
import { renderPixels } from '../../src/rendering/render.ts';

const skipReason = browserMissing();
const GRAVIT_TOKEN = 'launchserver-shared-secret-0123';
const THEMES = ['light', 'dark'] as const;
/** The page background (--paper) of each theme, as getComputedStyle gives it. */
const PAPER = { light: 'rgb(246, 247, 249)', dark: 'rgb(17, 20, 25)' };
const GAME_LOGIN = `${PUBLIC_URL}/api/yggdrasil/`;
const STEPS = ['Make your account', 'Choose a skin', 'Add the game login to your launcher'];
/** What the 3D part fetches, after the text: the viewer and three.js chunks, the recent skin and its texture. */
const THREE_D_PART = /\/assets\/(skinview3d|viewer)-[^/]+\.js$|\/api\/skin\/recent$|\/textures\/|\/assets\/classic-[^/]+\.png$/;

describeEachDatabase('the front page in a browser', (kind) => {
  let service: TestService;
  let browser: Browser;
  let origin: string;
  let close: (() => Promise<void>) | undefined;
  before(async () => {
    if (skipReason) return;
    ({ service, browser, origin, close } = await servePagesToBrowser(kind, GRAVIT_TOKEN));
  });
  after(() => close?.());

  /** Reduced motion: the figure stands still, which spares the CPU of the software-rendered WebGL. */
  const openPage = (viewport = DESKTOP, context: BrowserContextOptions = {}): Promise<Page> =>
    openWatchedPage(browser, origin, { viewport, context: { reducedMotion: 'reduce', ...context } });

  const figure = (page: Page) => page.locator('figure.preview[data-skin]');
  const paper = (page: Page) => page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
  const assertAccessibleInBothThemes = async (page: Page, name: string) => {
    for (const theme of THEMES) {
      await page.emulateMedia({ colorScheme: theme });
      assert.equal(await paper(page), PAPER[theme], `${name}: ${theme} theme drawn`);
      assert.deepEqual(await accessibilityProblems(page), [], `${name} in the ${theme} theme`);
      await screenshot(page, `${kind}-front-${name}-${theme}`);
    }
  };

  it(
    'shows the site name, three steps and the game login address with copy and drag link, then the default skin in 3D',
    { skip: skipReason ?? false },
    async () => {
      const page = await openPage(DESKTOP, { permissions: ['clipboard-read', 'clipboard-write'] });
      // What the page shows when the browser asks for the viewer's code and for three.js: the text is there before.
      const atThreeD: { heading: string; steps: number }[] = [];
      await page.route(/\/assets\/(viewer|skinview3d)-[^/]+\.js$/, async (route) => {
        atThreeD.push(
          await page.evaluate(() => ({
            heading: document.querySelector('main h1')?.textContent ?? '',
            steps: document.querySelectorAll('main ol li h3').length,
          })),
        );
        await route.continue();
      });
      await page.goto(`${origin}/`);
      await page.getByRole('heading', { level: 1, name: SITE_NAME }).waitFor();
      assert.equal(await page.title(), SITE_NAME);
      const steps = page.getByRole('region', { name: 'How to play' });
      assert.deepEqual(await steps.getByRole('listitem').getByRole('heading', { level: 3 }).allInnerTexts(), STEPS);

      // The game login's address: PUBLIC_URL's (not the address the browser used), copied by the button.
      const address = steps.getByLabel('Authentication server address', { exact: true });
      assert.equal(await address.inputValue(), GAME_LOGIN);
      await steps.getByRole('button', { name: 'Copy Authentication server address' }).click();
      await steps.getByRole('status').filter({ hasText: 'Copied' }).waitFor();
      assert.equal(await page.evaluate(() => navigator.clipboard.readText()), GAME_LOGIN);
      // The link to drag into a launcher carries authlib-injector's URI; clicked, it says to drag it instead.
      const dragLink = steps.getByRole('link', { name: `Game login at ${new URL(PUBLIC_URL).host}` });
      const dragData = `authlib-injector:yggdrasil-server:${encodeURIComponent(GAME_LOGIN)}`;
      assert.equal(await dragLink.getAttribute('href'), dragData);
      assert.equal(await dragLink.getAttribute('draggable'), 'true');
      const transfer = await page.evaluateHandle(() => new DataTransfer());
      await dragLink.dispatchEvent('dragstart', { dataTransfer: transfer });
      assert.equal(await transfer.evaluate((data) => data.getData('text/plain')), dragData);
      await dragLink.click();
      await steps.getByText('Drag the link into your launcher, or copy the address below.').waitFor();
      assert.equal(page.url(), `${origin}/`, 'the click leads nowhere');

      // The figure: the default skin (a file of the build), drawn once three.js came, after the text.
      await figure(page).waitFor();
      assert.match((await figure(page).getAttribute('data-skin'))!, /\/assets\/classic-[^/]+\.png$/);
      const text = { heading: SITE_NAME, steps: 3 };
      assert.deepEqual(atThreeD, [text, text], 'the text is on the page before the viewer and three.js are asked for');
      const canvas = page.getByRole('img', { name: 'A player in the default skin, in 3D' });
      await page.waitForTimeout(250); // a frame or two
      assert.ok(paintedPixels(await canvas.screenshot()) > 2000, 'the figure is drawn');
      await assertAccessibleInBothThemes(page, 'desktop');
    },
  );

  it('fits a phone without sideways scrolling, in both themes', { skip: skipReason ?? false }, async () => {
    const page = await openPage(PHONE);
    await page.goto(`${origin}/`);
    await page.getByRole('heading', { level: 1, name: SITE_NAME }).waitFor();
    await figure(page).waitFor();
    for (const theme of THEMES) {
      await page.emulateMedia({ colorScheme: theme });
      const widths = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, window: innerWidth }));
      assert.ok(widths.page <= widths.window, `${theme}: ${widths.page} pixels wide in a ${widths.window} pixel window`);
    }
    await assertAccessibleInBothThemes(page, 'phone');
  });

  it('says how to play in Russian and Chinese', { skip: skipReason ?? false }, async () => {
    for (const [locale, title, firstStep] of [
      ['ru-RU', 'Как начать играть', 'Заведите аккаунт'],
      ['zh-CN', '如何开始游戏', '创建你的账号'],
    ] as const) {
      const page = await openPage(PHONE, { locale });
      await page.goto(`${origin}/`);
      const steps = page.getByRole('region', { name: title });
      await steps.getByRole('heading', { level: 3, name: firstStep }).waitFor();
      await page.getByRole('heading', { level: 1, name: SITE_NAME }).waitFor();
      await figure(page).waitFor();
      assert.deepEqual(await accessibilityProblems(page), [], locale);
      await page.context().close();
    }
  });

  it('shows the newest skin a player wears, and the API says nothing of whose it is', { skip: skipReason ?? false }, async () => {
    const none = await service.call('GET', '/api/skin/recent');
    assert.equal(none.status, 200);
    assert.deepEqual(none.body.data, { skin: null }, 'nobody wears a skin yet');
    const player = await service.registerPlayer();
    assert.equal((await service.upload('/api/home/skins', player.token, { name: 'Slim', model: 'slim' }, skinFile('slim'))).status, 200);
    const worn = (await service.call('GET', `/api/skin/launcher/${player.username}`)).body.SKIN.digest as string;

    const recent = await service.call('GET', '/api/skin/recent');
    assert.equal(recent.status, 200);
    assert.deepEqual(recent.body.data, { skin: { url: `${PUBLIC_URL}/textures/${worn}`, digest: worn, slim: true } });
    assert.doesNotMatch(recent.raw.toString(), new RegExp(player.username, 'i'));
    assert.match(String(recent.headers['cache-control']), /public, max-age=\d+/);

    const page = await openPage();
    await page.goto(`${origin}/`);
    await page.locator(`figure.preview[data-skin="/textures/${worn}"]`).waitFor();
    const canvas = page.getByRole('img', { name: 'A player in a skin worn here lately, in 3D' });
    assert.ok(paintedPixels(await canvas.screenshot()) > 2000, 'the figure is drawn');
    await page.getByText('A skin worn here lately.').waitFor();
    await screenshot(page, `${kind}-front-recent-skin`);

    // A banned player's skin is no longer shown; the default skin is again.
    const banned = await service.call('PATCH', `/api/admin/user/${player.username}`, {
      token: await service.ownerToken(),
      body: { perms: -1 },
    });
    assert.equal(banned.status, 200);
    assert.deepEqual((await service.call('GET', '/api/skin/recent')).body.data, { skin: null });
  });

  it('serves the icons drawn by the renderer, linked from every page', { skip: skipReason ?? false }, async () => {
    const favicon = await service.call('GET', '/favicon.png');
    assert.equal(favicon.status, 200);
    assert.match(String(favicon.headers['content-type']), /^image\/png/);
    const decoded = PNG.sync.read(favicon.raw);
    assert.deepEqual([decoded.width, decoded.height], [32, 32]);
    // The head of the default skin in 3D, exactly as the renderer draws it.
    const head = renderPixels({ view: 'head', type: 'player', size: 32, skin: defaultSkin(false), slim: false });
    assert.ok(Buffer.from(decoded.data).equals(Buffer.from(head.data)), 'the favicon is the renderer’s head of the default skin');
    assert.equal((await service.call('GET', '/favicon.png', { headers: { 'if-none-match': String(favicon.headers.etag) } })).status, 304);

    for (const size of [180, 192, 512]) {
      const icon = await service.call('GET', `/icons/icon-${size}.png`);
      assert.equal(icon.status, 200, `${size}`);
      assert.match(String(icon.headers['content-type']), /^image\/png/);
      const image = PNG.sync.read(icon.raw);
      assert.deepEqual([image.width, image.height], [size, size]);
      assert.equal(image.data[3], 255, `${size}: opaque, as home screens show icons`);
      const centre = ((size / 2) * size + size / 2) * 4;
      assert.notDeepEqual([...image.data.subarray(centre, centre + 3)], [...image.data.subarray(0, 3)], `${size}: a head on the tile`);
    }
    const ico = await service.call('GET', '/favicon.ico');
    assert.equal(ico.status, 200);
    assert.match(String(ico.headers['content-type']), /^image\/x-icon/);
    assert.ok(ico.raw.subarray(22).equals(favicon.raw), 'the icon file holds the favicon');

    const manifest = await service.call('GET', '/manifest.webmanifest');
    assert.equal(manifest.status, 200);
    const parsed = JSON.parse(manifest.raw.toString());
    assert.equal(parsed.name, SITE_NAME);
    assert.deepEqual(
      parsed.icons.map((icon: { sizes: string }) => icon.sizes),
      ['192x192', '512x512'],
    );

    // Every page links them, and the browser gets each.
    const page = await openPage();
    await page.goto(`${origin}/login`);
    const links = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLLinkElement>('link[rel~="icon"], link[rel="apple-touch-icon"], link[rel="manifest"]')].map(
        (link) => new URL(link.href).pathname,
      ),
    );
    assert.deepEqual(links, ['/favicon.png', '/icons/icon-180.png', '/manifest.webmanifest']);
    for (const path of links) assert.equal(await page.evaluate((url) => fetch(url).then((reply) => reply.status), path), 200, path);
  });

  it('keeps the text within the login page’s budget, the 3D part coming after it', { skip: skipReason ?? false }, async (t) => {
    const loads: { text: number; threeD: number; requests: number }[] = [];
    for (let round = 0; round < 3; round++) {
      const page = await openPage(PHONE);
      const sizes: Promise<{ url: string; bytes: number }>[] = [];
      page.on('requestfinished', (request) => {
        sizes.push(request.sizes().then((size) => ({ url: request.url(), bytes: size.responseHeadersSize + size.responseBodySize })));
      });
      await page.goto(`${origin}/`);
      await page.getByRole('heading', { level: 1, name: SITE_NAME }).waitFor();
      await figure(page).waitFor();
      await page.waitForLoadState('networkidle');
      const finished = await Promise.all(sizes);
      const threeD = finished.filter((request) => THREE_D_PART.test(new URL(request.url).pathname));
      assert.ok(
        threeD.some((request) => /skinview3d-/.test(request.url)),
        'three.js came',
      );
      const sum = (list: { bytes: number }[]) => list.reduce((total, request) => total + request.bytes, 0);
      loads.push({ text: sum(finished) - sum(threeD), threeD: sum(threeD), requests: finished.length });
      await page.context().close();
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    const text = median(loads.map((load) => load.text));
    const threeD = median(loads.map((load) => load.threeD));
    t.diagnostic(
      `/, cold cache, median of ${loads.length}: ${text} bytes for the text, then ${threeD} for the 3D part (${loads[0]!.requests} requests)`,
    );
    assert.ok(text < LOGIN_PAGE_BUDGET, `the front page's text transfers ${text} bytes`);
  });
});
