// The player's pages in a real browser (Debian's Chromium), on a desktop and a phone: light and dark themes (the
// system's, and the header's switch, remembered and applied before the first paint), axe-core's accessibility check
// of every page in both themes (the admin console's sections too), the focus on the heading after each page change,
// registration and upload by keyboard alone, the 3D preview's controls, a new skin shown at once and worn from the
// upload message, renaming and deleting in the page, and the API's refusals said in the player's words.
// The browser opens the service by 127.0.0.1 while its PUBLIC_URL names another host (http://skins.test).
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { Browser, BrowserContextOptions, Locator, Page } from 'playwright-core';
import { accessibilityProblems } from '../support/accessibility.ts';
import { browserMissing, DESKTOP, logIn, openWatchedPage, PHONE, screenshot, servePagesToBrowser, SITE_NAME } from '../support/browser.ts';
import { describeEachDatabase } from '../support/databases.ts';
import { capeFile, fixture, FIXTURES, skinFile } from '../support/fixtures.ts';
import { OWNER, PUBLIC_URL, uniqueName, type TestService } from '../support/service.ts';
import { paintedPixels } from '../support/rendering.ts';
import { linkIn, mailTo } from '../support/smtp.ts';
import { SECTIONS } from '../../web/src/pages/admin/sections.ts';

const skipReason = browserMissing();
const GRAVIT_TOKEN = 'launchserver-shared-secret-0123';
const THEMES = ['light', 'dark'] as const;
/** The page background (--paper) of each theme, as getComputedStyle gives it. */
const PAPER = { light: 'rgb(246, 247, 249)', dark: 'rgb(17, 20, 25)' };

describeEachDatabase('player pages in a browser', (kind) => {
  let service: TestService;
  let browser: Browser;
  let origin: string;
  let close: (() => Promise<void>) | undefined;
  before(async () => {
    if (skipReason) return;
    ({ service, browser, origin, close } = await servePagesToBrowser(kind, GRAVIT_TOKEN));
  });
  after(() => close?.());

  /**
   * A page in a new browser context; any page error, request elsewhere or browser dialog fails the test. Reduced
   * motion unless asked otherwise: the 3D preview stands still, which spares the CPU of the software-rendered WebGL.
   */
  const openPage = (viewport: { width: number; height: number }, options: BrowserContextOptions = {}): Promise<Page> =>
    openWatchedPage(browser, origin, { viewport, context: { reducedMotion: 'reduce', ...options } });

  /** The page's background colour: which theme is drawn. */
  const paper = (page: Page) => page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);

  /** axe-core's serious and critical findings in each theme (as the system's choice), with `name` in the message. */
  const assertAccessibleInBothThemes = async (page: Page, name: string, shots?: string) => {
    for (const theme of THEMES) {
      await page.emulateMedia({ colorScheme: theme });
      assert.equal(await paper(page), PAPER[theme], `${name}: ${theme} theme drawn`);
      assert.deepEqual(await accessibilityProblems(page), [], `${name} in the ${theme} theme`);
      if (shots) await screenshot(page, `${kind}-${shots}-${theme}`);
    }
  };

  /** The element with the focus: its tag, its accessible name (label, aria-label or text) and its type. */
  const focused = (page: Page) =>
    page.evaluate(() => {
      const element = document.activeElement as HTMLElement | null;
      if (!element) return { tag: '', name: '', type: '' };
      const input = element as HTMLInputElement;
      const name = element.getAttribute('aria-label') ?? input.labels?.[0]?.textContent ?? element.textContent ?? '';
      return { tag: element.tagName.toLowerCase(), name: name.trim(), type: input.type ?? '' };
    });

  /** Presses Tab (only) until the element named `name` has the focus; fails if Tab never reaches it. */
  const tabTo = async (page: Page, name: string) => {
    const seen: string[] = [];
    for (let presses = 0; presses < 60; presses += 1) {
      await page.keyboard.press('Tab');
      const now = await focused(page);
      if (now.name === name) return now;
      seen.push(now.name);
    }
    assert.fail(`Tab never reached "${name}"; it went through: ${seen.join(' | ')}`);
  };

  /** Waits until the page's h1 has the focus and says `title`. */
  const headingFocused = (page: Page, title: string) =>
    page.waitForFunction((expected) => document.activeElement?.tagName === 'H1' && document.activeElement.textContent === expected, title, {
      timeout: 5000,
    });

  it(
    'shows visitors the front, login, registration and reset pages in both themes at 127.0.0.1 while PUBLIC_URL names another host, and sends protected pages to the login',
    { skip: skipReason ?? false },
    async () => {
      // The browser's address is not PUBLIC_URL's host; the service still announces PUBLIC_URL to launchers.
      assert.equal(new URL(origin).hostname, '127.0.0.1');
      assert.notEqual(new URL(PUBLIC_URL).host, new URL(origin).host);
      for (const [viewport, suffix] of [
        [DESKTOP, ''],
        [PHONE, '-phone'],
      ] as const) {
        const page = await openPage(viewport);
        await page.goto(`${origin}/`);
        await page.getByRole('heading', { level: 1, name: SITE_NAME }).waitFor();
        const announced = await page.evaluate(() =>
          fetch('/api/yggdrasil/').then((reply) => reply.headers.get('x-authlib-injector-api-location')),
        );
        assert.equal(announced, `${PUBLIC_URL}/api/yggdrasil/`);
        for (const [path, title, name] of [
          ['/', SITE_NAME, 'front'],
          ['/login', 'Log in', 'login'],
          ['/register', 'Create an account', 'register'],
          ['/reset', 'Reset your password', 'reset'],
          ['/register/confirm', 'Confirm your mail', 'register-confirm'],
          ['/reset/confirm', 'Choose a new password', 'reset-confirm'],
        ] as const) {
          await page.goto(`${origin}${path}`);
          await page.getByRole('heading', { level: 1, name: title }).waitFor();
          await assertAccessibleInBothThemes(page, `${path}${suffix}`, `web-${name}${suffix}`);
        }
        // Refusals say what to do, in the player's words, on the field they are about.
        await page.goto(`${origin}/register/confirm`);
        await page.getByLabel('Code from the mail').fill('abcde-fghjk');
        await page.getByLabel('Mail address').fill('nobody@example.org');
        await page.getByLabel('Password', { exact: true }).fill('a good password 12');
        await page.getByRole('button', { name: 'Confirm' }).click();
        await page.locator('input[name="code"][aria-invalid="true"]').waitFor();
        assert.equal(
          await page.locator('.field-error').innerText(),
          'This code is wrong, expired or already used: open the link in the newest mail, or ask for a new code.',
        );
        await page.goto(`${origin}/login`);
        await page.getByLabel('Username or mail').fill('nobody-here');
        await page.getByLabel('Password').fill('not a password');
        await page.getByRole('button', { name: 'Log in' }).click();
        await page
          .getByRole('alert')
          .filter({ hasText: 'Wrong username, mail or password: check them and try again, or reset the password.' })
          .waitFor();
        // Pages for logged-in players lead to the login page, which goes on to the page opened (the profile is the default).
        for (const [path, login] of [
          ['/home', '/login'],
          ['/admin', '/login?next=%2Fadmin'],
          ['/register/finish', '/login'],
        ]) {
          await page.goto(`${origin}${path}`);
          await page.waitForURL(`${origin}${login}`);
          await page.getByLabel('Username or mail').waitFor();
        }
        // Each page change moves the focus to the new page's heading, by a link and by the browser's Back.
        await page.goto(`${origin}/`);
        await page.getByRole('link', { name: 'Create an account' }).click();
        await page.waitForURL(`${origin}/register`);
        await headingFocused(page, 'Create an account');
        await page.getByRole('link', { name: 'Log in' }).click();
        await headingFocused(page, 'Log in');
        await page.getByRole('link', { name: 'Forgot your password?' }).click();
        await headingFocused(page, 'Reset your password');
        await page.goBack();
        await page.waitForURL(`${origin}/login`);
        await headingFocused(page, 'Log in');
        // Tab goes on from the top of the new page: the first field, not the link that was clicked.
        await page.keyboard.press('Tab');
        assert.equal((await focused(page)).name, 'Username or mail');
      }
    },
  );

  it(
    'follows the system theme, and the switch chooses light, dark or the system for good, before the first paint',
    { skip: skipReason ?? false },
    async () => {
      const page = await openPage(DESKTOP, { colorScheme: 'dark' });
      await page.goto(`${origin}/login`);
      await page.getByRole('heading', { name: 'Log in' }).waitFor();
      assert.equal(await paper(page), PAPER.dark, 'the system prefers dark');
      const themeSwitch = page.getByRole('banner').getByLabel('Theme');
      assert.equal(await themeSwitch.inputValue(), 'system');

      await themeSwitch.selectOption('light');
      assert.equal(await paper(page), PAPER.light, 'light chosen over the system');
      await page.reload();
      await page.getByRole('heading', { name: 'Log in' }).waitFor();
      assert.equal(await paper(page), PAPER.light, 'remembered after a reload');
      assert.equal(await page.getByLabel('Theme').inputValue(), 'light');

      await page.emulateMedia({ colorScheme: 'light' });
      await page.getByLabel('Theme').selectOption('dark');
      assert.equal(await paper(page), PAPER.dark, 'dark chosen over a light system');
      // Kept on the next page of the app too.
      await page.getByRole('link', { name: 'Create an account' }).click();
      await page.getByRole('heading', { name: 'Create an account' }).waitFor();
      assert.equal(await paper(page), PAPER.dark);
      assert.deepEqual(await accessibilityProblems(page), [], 'registration, dark chosen');

      // Applied before the app's script runs: with the app's script blocked, the empty page is already dark.
      const bare = await page.context().newPage();
      await bare.emulateMedia({ colorScheme: 'light' });
      await bare.route(/\/assets\/index-[^/]*\.js$/, (route) => route.abort());
      await bare.goto(`${origin}/login`);
      assert.equal(await bare.locator('h1').count(), 0, 'the app did not run');
      assert.equal(await bare.evaluate(() => document.documentElement.dataset.theme), 'dark');
      assert.equal(await paper(bare), PAPER.dark);
      await bare.close();

      // Back to the system's choice: the page follows the system again, after a reload too.
      await page.getByLabel('Theme').selectOption('system');
      assert.equal(await paper(page), PAPER.light);
      await page.emulateMedia({ colorScheme: 'dark' });
      assert.equal(await paper(page), PAPER.dark);
      await page.reload();
      await page.getByRole('heading', { name: 'Create an account' }).waitFor();
      assert.equal(await paper(page), PAPER.dark);
      assert.equal(await page.evaluate(() => localStorage.getItem('skinservice.theme')), null);
    },
  );

  for (const [viewport, device] of [
    [DESKTOP, 'desktop'],
    [PHONE, 'phone'],
  ] as const) {
    it(`registers and uploads skins with the keyboard alone (${device})`, { skip: skipReason ?? false }, async () => {
      const page = await openPage(viewport);
      const username = uniqueName('keys');
      const mail = `${username.toLowerCase()}@example.org`;
      const password = 'correct horse battery';
      await page.goto(`${origin}/register`);
      await page.getByRole('heading', { name: 'Create an account' }).waitFor();

      // Tab, type, Enter.
      await tabTo(page, 'Mail address');
      await page.keyboard.type(mail);
      await tabTo(page, 'Password');
      await page.keyboard.type(password);
      // The switch that shows the password is the next stop, and Space works it.
      await tabTo(page, 'Show password');
      await page.keyboard.press('Space');
      assert.equal(await page.getByLabel('Password', { exact: true }).getAttribute('type'), 'text');
      await tabTo(page, 'Register');
      await page.keyboard.press('Enter');
      await page.waitForURL(`${origin}/register/confirm`);
      await headingFocused(page, 'Confirm your mail');

      // The link in the mail the test SMTP server received, opened on the browser's address.
      const link = linkIn(await service.mailbox.waitFor(mailTo(mail)));
      assert.ok(link.startsWith(`${PUBLIC_URL}/register/confirm?code=`), link);
      const { pathname, search } = new URL(link);
      // Opened as in another browser, which did not register: the page asks for the account's password first
      // (registration-flow.browser.test.ts follows the browser that registered, which is logged in at once).
      await page.evaluate(() => localStorage.removeItem('skinservice.registration'));
      await page.goto(`${origin}${pathname}${search}`);
      await page.getByText('This browser did not register the account').waitFor();
      await tabTo(page, 'Password');
      await page.keyboard.type(password);
      await page.keyboard.press('Enter');
      await page.waitForURL(`${origin}/register/finish`);
      await headingFocused(page, 'Finish your registration');
      await tabTo(page, 'Your name in the game');
      await page.keyboard.type(username);
      await page.keyboard.press('Enter');
      await page.waitForURL(`${origin}/home`);
      await headingFocused(page, username);

      // The file chooser is reached by Tab (the test hands it the file, as a person picks it in the chooser).
      const chooser = await tabTo(page, 'Skin file');
      assert.deepEqual([chooser.tag, chooser.type], ['input', 'file']);
      await page.locator(':focus').setInputFiles(`${FIXTURES}/skins/classic.png`);
      await page.getByText('classic.png uploaded: you wear it now.').waitFor();
      // The second skin is shown at once, and worn with "Wear it", reached by Tab from the file chooser.
      await page.getByLabel('Skin file').focus();
      await page.locator(':focus').setInputFiles(`${FIXTURES}/skins/slim.png`);
      await page.getByText('slim.png uploaded: the preview shows it.').waitFor();
      const slim = await page.locator('li[data-skin-uuid]', { hasText: 'slim' }).getAttribute('data-skin-uuid');
      await page.locator(`figure.preview[data-skin="/api/skin/cloak/${slim}"]`).waitFor();
      await tabTo(page, 'Wear it');
      await page.keyboard.press('Enter');
      await page.getByText('You wear slim now.').waitFor();
      await page.locator(`li.selected[data-skin-uuid="${slim}"]`).waitFor();
      const token = await page.evaluate(() => localStorage.getItem('skinservice.token'));
      const skins = await service.call('GET', '/api/home/skins', { token: token! });
      assert.equal(skins.body.data.find((skin: { selected: boolean }) => skin.selected).uuid, slim, 'worn, as the API says');
    });
  }

  it(
    'pauses, zooms and turns the 3D preview, paused at first for people who prefer less motion',
    { skip: skipReason ?? false },
    async () => {
      const player = await service.registerPlayer();
      assert.equal((await service.upload('/api/home/skins', player.token, { name: 'Classic' }, skinFile('classic'))).status, 200);
      const page = await openPage(DESKTOP, { reducedMotion: 'reduce' });
      await logIn(page, origin, player.username, player.password);
      await page.locator('figure.preview[data-skin^="/api/skin/cloak/"]').waitFor();
      const canvas = page.getByRole('img', { name: `3D preview of ${player.username}` });
      // Larger on a wide screen than the phone's 260 pixels.
      const box = (await canvas.boundingBox())!;
      assert.ok(box.width >= 340, `canvas ${box.width} wide`);
      const frame = async () => {
        await page.waitForTimeout(250); // a few animation frames
        return canvas.screenshot();
      };
      const still = async () => {
        const first = await frame();
        return first.equals(await frame());
      };

      // Paused from the start (prefers-reduced-motion), walking once played, still again when paused.
      await page.getByRole('button', { name: 'Play animation' }).waitFor();
      assert.ok(await still(), 'paused: nothing moves');
      await page.getByRole('button', { name: 'Play animation' }).click();
      assert.equal(await still(), false, 'playing: the player walks');
      await page.getByRole('button', { name: 'Pause animation' }).click();
      assert.ok(await still(), 'paused again');

      // Zoom by the buttons and by the wheel over the canvas (which does not scroll the page).
      const before = await frame();
      await page.getByRole('button', { name: 'Zoom in' }).click();
      const zoomedIn = await frame();
      assert.ok(paintedPixels(zoomedIn) > paintedPixels(before) * 1.2, 'zoomed in: a larger figure');
      await page.getByRole('button', { name: 'Zoom out' }).click();
      await page.getByRole('button', { name: 'Zoom out' }).click();
      const zoomedOut = await frame();
      assert.ok(paintedPixels(zoomedOut) < paintedPixels(before), 'zoomed out: a smaller figure');
      const scrolled = await page.evaluate(() => scrollY);
      await canvas.hover();
      await page.mouse.wheel(0, -400);
      assert.ok(paintedPixels(await frame()) > paintedPixels(zoomedOut), 'the wheel zooms in');
      assert.equal(await page.evaluate(() => scrollY), scrolled, 'the page did not scroll');

      // The canvas is reached by Tab, named, and turned by the arrow keys; Home faces the front again.
      const reached = await tabTo(page, `3D preview of ${player.username}`);
      assert.equal(reached.tag, 'canvas');
      const front = await frame();
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('ArrowRight');
      const turned = await frame();
      assert.equal(turned.equals(front), false, 'the arrow keys turn the player');
      await page.keyboard.press('ArrowLeft');
      assert.equal((await frame()).equals(turned), false, 'and back');
      await page.keyboard.press('Home');
      assert.ok((await frame()).equals(front), 'Home: facing the front as before');
      await screenshot(page, `${kind}-preview-controls`, page.locator('figure.preview'));
    },
  );

  it(
    'shows a new skin at once and wears it from the upload message, renames and deletes in the page, and says what went wrong in plain words',
    { skip: skipReason ?? false },
    async () => {
      const player = await service.registerPlayer();
      const first = (await service.upload('/api/home/skins', player.token, { name: 'Classic' }, skinFile('classic'))).body.data;
      const ownerToken = await service.ownerToken();
      const playerId = (await service.call('GET', `/api/admin/users?search=${player.username}`, { token: ownerToken })).body.data[0].id;
      const cape = await service.upload(
        '/api/admin/user/cape/upload',
        ownerToken,
        { name: 'Founders', owners: String(playerId) },
        capeFile('cape'),
      );
      assert.equal(cape.status, 200, cape.body?.msg);
      const ownSkins = async () =>
        (await service.call('GET', '/api/home/skins', { token: player.token })).body.data as {
          uuid: string;
          name: string;
          selected: boolean;
        }[];

      const page = await openPage(DESKTOP);
      await logIn(page, origin, player.username, player.password);
      await page.locator(`figure.preview[data-skin="/api/skin/cloak/${first.uuid}"]`).waitFor();

      // Thumbnails: each skin as the whole player, the cape on the default player from behind, rendered by the service.
      const thumbnail = (item: Locator) => item.locator('img');
      const firstItem = page.locator(`li[data-skin-uuid="${first.uuid}"]`);
      assert.equal(await thumbnail(firstItem).getAttribute('src'), `/api/skin/body/${first.uuid}?size=48&type=player`);
      const capeItem = page.locator('li[data-cape-uuid]', { hasText: 'Founders' });
      assert.equal(await thumbnail(capeItem).getAttribute('src'), `/api/skin/cloak/${cape.body.data.uuid}?size=48&type=player`);
      for (const image of [thumbnail(firstItem), thumbnail(capeItem)])
        await page.waitForFunction((element) => (element as HTMLImageElement).naturalWidth === 48, await image.elementHandle());

      // A new skin: the preview shows it at once, not worn yet; "Wear it" in the upload message wears it.
      await page.getByLabel('Skin file').setInputFiles(`${FIXTURES}/skins/slim.png`);
      const upload = page.getByRole('region', { name: 'Upload a skin' });
      await upload.getByText('slim.png uploaded: the preview shows it.').waitFor();
      const slim = (await ownSkins()).find((skin) => skin.name === 'slim')!;
      await page.locator(`figure.preview[data-skin="/api/skin/cloak/${slim.uuid}"]`).waitFor();
      await page.getByText('Showing slim, not worn yet.').waitFor();
      assert.equal(slim.selected, false);
      await screenshot(page, `${kind}-new-skin-shown`);
      await upload.getByRole('button', { name: 'Wear it' }).click();
      await upload.getByText('You wear slim now.').waitFor();
      assert.equal((await ownSkins()).find((skin) => skin.selected)?.uuid, slim.uuid);
      assert.equal(await page.getByText('not worn yet').count(), 0);

      // Rename in place: Escape keeps the name, an empty name is refused on the field, Enter renames.
      const slimItem = page.locator(`li[data-skin-uuid="${slim.uuid}"]`);
      await slimItem.getByRole('button', { name: 'Rename slim' }).click();
      const nameField = slimItem.getByLabel('New name for slim');
      await nameField.waitFor();
      await page.waitForFunction(() => document.activeElement?.id === document.querySelector('.rename input')?.id, null, { timeout: 5000 });
      await nameField.fill('Whatever');
      await page.keyboard.press('Escape');
      await slimItem.getByRole('button', { name: 'Rename slim' }).waitFor();
      // The focus is back on the button.
      await page.waitForFunction(() => document.activeElement?.getAttribute('aria-label') === 'Rename slim', null, { timeout: 5000 });
      await slimItem.getByRole('button', { name: 'Rename slim' }).click();
      await nameField.fill('   ');
      await nameField.press('Enter');
      assert.equal(await nameField.getAttribute('aria-invalid'), 'true');
      assert.equal(
        await page.locator(`#${await nameField.getAttribute('aria-describedby')}`).innerText(),
        'Give the skin a name, or press Cancel.',
      );
      await nameField.fill('Summer');
      await nameField.press('Enter');
      await slimItem.getByRole('button', { name: 'Rename Summer' }).waitFor();
      assert.equal((await ownSkins()).find((skin) => skin.uuid === slim.uuid)?.name, 'Summer');

      // Delete asks in the page; Cancel keeps the skin and gives the focus back; confirming deletes it.
      await slimItem.getByRole('button', { name: 'Delete Summer' }).click();
      const asking = page.getByRole('alertdialog', { name: 'Delete Summer' });
      assert.match(await asking.innerText(), /Delete the skin "Summer" for good\? You wear it now/);
      await screenshot(page, `${kind}-delete-asking`, page.getByRole('region', { name: 'Your skins' }));
      await asking.getByRole('button', { name: 'Cancel' }).click();
      await asking.waitFor({ state: 'detached' });
      await page.waitForFunction(() => document.activeElement?.getAttribute('aria-label') === 'Delete Summer');
      assert.equal((await ownSkins()).length, 2, 'cancelled: nothing deleted');
      await slimItem.getByRole('button', { name: 'Delete Summer' }).click();
      await asking.getByRole('button', { name: 'Delete Summer' }).click();
      await page.getByText('The skin Summer is deleted.').waitFor();
      await slimItem.waitFor({ state: 'detached' });
      assert.deepEqual(
        (await ownSkins()).map((skin) => skin.uuid),
        [first.uuid],
      );

      // Refusals in the player's words: a file over the limit, a file that is no PNG.
      const oversized = Buffer.concat([fixture('skins/classic.png'), Buffer.alloc(1024 * 1024)]);
      await page.getByLabel('Skin file').setInputFiles({ name: 'big.png', mimeType: 'image/png', buffer: oversized });
      await upload.getByRole('alert').filter({ hasText: 'The file is too large: skins can be at most 1 MB.' }).waitFor();
      await page.getByLabel('Skin file').setInputFiles(`${FIXTURES}/invalid/not-a-png.png`);
      await upload.getByRole('alert').filter({ hasText: 'The skin file is not a PNG image' }).waitFor();
      assert.equal((await ownSkins()).length, 1, 'nothing stored');

      // A wrong current password is shown on its field, which takes the focus.
      const passwordForm = page.getByRole('region', { name: 'Change password' });
      await passwordForm.getByLabel('Current password').fill('not my password');
      await passwordForm.getByLabel('New password').fill('another good password');
      await passwordForm.getByRole('button', { name: 'Change password' }).click();
      const current = passwordForm.getByLabel('Current password');
      await page.waitForFunction(() => document.activeElement?.getAttribute('aria-invalid') === 'true');
      assert.equal(await current.getAttribute('aria-invalid'), 'true');
      assert.equal(
        await page.locator(`#${await current.getAttribute('aria-describedby')}`).innerText(),
        'Your current password is wrong: type it again.',
      );
      assert.equal((await focused(page)).name, 'Current password');
      // A password too short, from the API, on the new password's field.
      await current.fill(player.password);
      await passwordForm.getByLabel('New password').fill('short');
      await passwordForm.getByRole('button', { name: 'Change password' }).click();
      const newPassword = passwordForm.getByLabel('New password');
      await page.waitForFunction(() => document.activeElement?.getAttribute('name') === 'password');
      assert.equal(
        await page.locator(`#${(await newPassword.getAttribute('aria-describedby'))!.split(' ').at(-1)}`).innerText(),
        'The password is too short: use at least 8 characters.',
      );
      assert.equal(await current.getAttribute('aria-invalid'), null, 'the other field is fine now');
    },
  );

  it(
    'passes the accessibility check on the profile and every admin console section in both themes',
    { skip: skipReason ?? false },
    async () => {
      const player = await service.registerPlayer();
      await service.upload('/api/home/skins', player.token, { name: 'Classic' }, skinFile('classic'));
      for (const [viewport, suffix] of [
        [DESKTOP, ''],
        [PHONE, '-phone'],
      ] as const) {
        const page = await openPage(viewport);
        await logIn(page, origin, player.username, player.password);
        await page.locator('figure.preview[data-skin^="/api/skin/cloak/"]').waitFor();
        await assertAccessibleInBothThemes(page, `profile${suffix}`, `web-profile${suffix}`);
      }

      const owner = await openPage(DESKTOP);
      await logIn(owner, origin, OWNER.username, OWNER.password);
      await owner.getByRole('link', { name: 'Admin' }).click();
      await headingFocused(owner, 'Administration');
      for (const { id: tab } of SECTIONS) {
        await owner.goto(`${origin}/admin?tab=${tab}`);
        await owner.getByRole('heading', { name: 'Administration' }).waitFor();
        await owner.getByRole('navigation', { name: 'Sections' }).waitFor();
        await owner.waitForLoadState('networkidle');
        await assertAccessibleInBothThemes(owner, `admin ${tab}`);
      }
      await owner.goto(`${origin}/admin?tab=users&user=${player.username}`);
      await owner.getByRole('region', { name: `User ${player.username}` }).waitFor();
      await owner.waitForLoadState('networkidle');
      await assertAccessibleInBothThemes(owner, 'admin user editor');
    },
  );
});
