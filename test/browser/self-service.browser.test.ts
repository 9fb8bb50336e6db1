// The profile's self-service parts in a real browser (Debian's Chromium): the account's sessions of every kind,
// logging out everywhere, and deleting the account, each after a confirmation in the page (no browser dialog).
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { describeEachDatabase } from '../support/databases.ts';
import { browserMissing, logIn, openWatchedPage, servePagesToBrowser } from '../support/browser.ts';
import { LaunchServerRequester } from '../support/launchserver.ts';
import type { TestService } from '../support/service.ts';

const skipReason = browserMissing();
const GRAVIT_TOKEN = 'launchserver-shared-secret-0123';

describeEachDatabase('self-service pages in a browser', (kind) => {
  let service: TestService;
  let browser: Browser;
  let origin: string;

  let close: (() => Promise<void>) | undefined;
  before(async () => {
    if (skipReason) return;
    ({ service, browser, origin, close } = await servePagesToBrowser(kind, GRAVIT_TOKEN));
  });
  after(() => close?.());

  const openPage = (): Promise<Page> => openWatchedPage(browser, origin);
  const tokenOf = (page: Page) => page.evaluate(() => localStorage.getItem('skinservice.token'));

  it('lists the sessions of every kind and logs out everywhere', { skip: skipReason ?? false }, async () => {
    const player = await service.registerPlayer();
    const game = await service.call('POST', '/api/yggdrasil/authserver/authenticate', {
      body: { username: player.mail, password: player.password },
    });
    assert.equal(game.status, 200);
    const launchServer = new LaunchServerRequester(service, GRAVIT_TOKEN);
    const launcher = await launchServer.post('authorize', { login: player.username, password: player.password });
    assert.ok(launcher.ok);

    const page = await openPage();
    await logIn(page, origin, player.username, player.password);
    const sessions = page.getByRole('region', { name: 'Sessions' });
    const items = sessions.getByRole('listitem');
    // The registration's own login, this browser's, the game token and the launcher session.
    await items.nth(3).waitFor();
    const texts = await items.allInnerTexts();
    assert.equal(texts.length, 4);
    assert.equal(texts.filter((text) => text.includes('this browser')).length, 1);
    assert.match(
      texts.find((text) => text.includes('this browser'))!,
      /Website login/,
    );
    assert.ok(texts.some((text) => /Game login/.test(text)));
    assert.ok(texts.some((text) => /GravitLauncher login/.test(text)));
    for (const text of texts) assert.match(text, /since .+, until .+/);

    const oldToken = await tokenOf(page);
    await sessions.getByRole('button', { name: 'Log out everywhere' }).click();
    const confirmation = sessions.getByRole('alertdialog');
    await confirmation.getByRole('button', { name: 'Cancel' }).click();
    assert.equal(await confirmation.count(), 0, 'cancelled');
    assert.equal((await service.call('GET', '/api/home', { token: oldToken! })).status, 200, 'a cancel changes nothing');

    await sessions.getByRole('button', { name: 'Log out everywhere' }).click();
    await sessions.getByRole('button', { name: 'Log out everywhere now' }).click();
    await page.waitForURL(`${origin}/login`);
    await page.getByText('You are logged out everywhere').waitFor();
    assert.equal((await service.call('GET', '/api/home', { token: oldToken! })).status, 401);
    assert.equal((await service.call('GET', '/api/home', { token: player.token })).status, 401);
    const validate = await service.call('POST', '/api/yggdrasil/authserver/validate', { body: { accessToken: game.body.accessToken } });
    assert.equal(validate.status, 403);
  });

  it('deletes the account after the password and a confirmation', { skip: skipReason ?? false }, async () => {
    const player = await service.registerPlayer();
    const page = await openPage();
    await logIn(page, origin, player.username, player.password);
    const part = page.getByRole('region', { name: 'Delete my account' });

    await part.getByLabel('Your password').fill('not the password');
    await part.getByRole('button', { name: 'Delete my account' }).click();
    const confirmation = part.getByRole('alertdialog');
    assert.match(await confirmation.innerText(), new RegExp(`${player.username} for good.*cannot be undone`, 's'));
    await confirmation.getByRole('button', { name: 'Delete my account for good' }).click();
    await part.getByRole('alert').getByText('password is wrong').waitFor();
    assert.equal(page.url(), `${origin}/home`);
    assert.equal((await service.call('GET', '/api/home', { token: player.token })).status, 200, 'nothing deleted');

    await part.getByLabel('Your password').fill(player.password);
    await part.getByRole('button', { name: 'Delete my account' }).click();
    await part.getByRole('button', { name: 'Delete my account for good' }).click();
    await page.waitForURL(`${origin}/`);
    await page.getByText(`The account ${player.username} is deleted.`).waitFor();
    await page.getByRole('main').getByRole('link', { name: 'Log in' }).click();

    await page.getByLabel('Username or mail').fill(player.username);
    await page.getByLabel('Password').fill(player.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('alert').getByText('Wrong username, mail or password: check them and try again').waitFor();
    assert.equal(page.url(), `${origin}/login`);
  });

  it(
    'keeps the player logged in after a wrong current password on the password and mail forms',
    { skip: skipReason ?? false },
    async () => {
      const player = await service.registerPlayer();
      const page = await openPage();
      await logIn(page, origin, player.username, player.password);
      const token = await tokenOf(page);
      for (const [heading, newValue] of [
        ['Change password', { label: 'New password', value: 'another good password' }],
        ['Change mail address', { label: 'New mail address', value: 'elsewhere@example.org' }],
      ] as const) {
        const form = page.locator('section.card', { has: page.getByRole('heading', { name: heading }) });
        await form.getByLabel(newValue.label).fill(newValue.value);
        await form.getByLabel('Current password').fill('not the password');
        await form.getByRole('button', { name: heading === 'Change password' ? 'Change password' : 'Change mail' }).click();
        // In the player's words, on the field (no field name like current_password).
        await form.getByText('Your current password is wrong: type it again.').waitFor();
        assert.equal(await form.getByLabel('Current password').getAttribute('aria-invalid'), 'true', heading);
        assert.equal(page.url(), `${origin}/home`, heading);
        assert.equal(await tokenOf(page), token, `${heading}: the page keeps its token`);
      }
      assert.equal((await service.call('GET', '/api/home', { token: token! })).status, 200);
    },
  );
});
