// Two-factor login in a real browser (Debian's Chromium), on SQLite and PostgreSQL: a player turns it on from the
// profile (reading the secret from the page, as they would type it into an app), keeps the recovery codes, logs
// out, and logs in again through the second step, with a code and with a recovery code; an admin turns it off for
// them in the user editor. Codes are made by the test with otpauth at the test's clock, which the service reads too.
// Each page visited is axe-clean.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { Secret, TOTP } from 'otpauth';
import type { Browser, Page } from 'playwright-core';
import { assertAccessibleInBothThemes } from '../support/accessibility.ts';
import { browserMissing, logIn, openWatchedPage, screenshot, servePagesToBrowser } from '../support/browser.ts';
import { ManualClock } from '../support/clock.ts';
import { describeEachDatabase } from '../support/databases.ts';
import type { TestService } from '../support/service.ts';

const skipReason = browserMissing();
const GRAVIT_TOKEN = 'launchserver-shared-secret-0123';
const STEP = 30_000;

describeEachDatabase('two-factor login in a browser', (kind) => {
  const clock = new ManualClock();
  let service: TestService;
  let browser: Browser;
  let origin: string;
  let close: (() => Promise<void>) | undefined;
  before(async () => {
    if (skipReason) return;
    ({ service, browser, origin, close } = await servePagesToBrowser(kind, GRAVIT_TOKEN, clock));
  });
  after(() => close?.());

  const openPage = (): Promise<Page> => openWatchedPage(browser, origin);
  const codeOf = (secret: string) =>
    TOTP.generate({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30, timestamp: clock.now() });
  /** The login's first step, the password: a second step may follow. */
  const logInFirstStep = (page: Page, username: string, password: string) =>
    logIn(page, origin, username, password, { waitForHome: false });

  it('turns on from the profile, then the login asks for the code in a second step', { skip: skipReason ?? false }, async () => {
    const player = await service.registerPlayer();
    const page = await openPage();
    await logIn(page, origin, player.username, player.password);

    const section = page.getByRole('region', { name: 'Two-factor login' });
    await section.getByRole('button', { name: 'Turn on two-factor login' }).click();
    // The password first: a wrong one is said on its field, and no secret is shown.
    const password = section.getByLabel('Your password');
    await password.fill('not my password');
    await section.getByRole('button', { name: 'Continue' }).click();
    await section.getByText('The password is wrong').waitFor();
    assert.equal(await section.getByRole('img', { name: /QR code/ }).count(), 0);
    await password.fill(player.password);
    await section.getByRole('button', { name: 'Continue' }).click();
    const qr = section.getByRole('img', { name: /QR code/ });
    await qr.waitFor();
    assert.match((await qr.getAttribute('src')) ?? '', /^data:image\/png;base64,/, 'the QR code is made by the service, no other site');
    assert.ok(await qr.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 100), 'the QR code shows');
    const secret = await section.getByRole('textbox', { name: 'Secret (to type into the app)', exact: true }).inputValue();
    assert.match(secret, /^[A-Z2-7]{32}$/);
    const codeField = section.getByLabel('Code the app shows now');
    assert.equal(await codeField.getAttribute('autocomplete'), 'one-time-code');
    assert.equal(await codeField.getAttribute('inputmode'), 'numeric');
    await assertAccessibleInBothThemes(page, 'the setup');
    await screenshot(page, 'web-two-factor-setup', section);

    await codeField.fill(codeOf(secret) === '000000' ? '111111' : '000000');
    await section.getByRole('button', { name: 'Turn on', exact: true }).click();
    await section.getByText('This code is wrong').waitFor();
    assert.equal(await codeField.getAttribute('aria-invalid'), 'true');
    const describedBy = (await codeField.getAttribute('aria-describedby')) ?? '';
    assert.match(await page.locator(`#${describedBy.split(' ').at(-1)}`).innerText(), /This code is wrong/);

    await codeField.fill(codeOf(secret));
    await section.getByRole('button', { name: 'Turn on', exact: true }).click();
    const codes = section.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
    await codes.nth(9).waitFor();
    const recoveryCodes = await codes.allInnerTexts();
    assert.equal(recoveryCodes.length, 10);
    assert.equal(
      await section.getByRole('textbox', { name: 'All recovery codes', exact: true }).inputValue(),
      recoveryCodes.join(' '),
      'all of them to copy',
    );
    await assertAccessibleInBothThemes(page, 'the recovery codes');
    await screenshot(page, 'web-two-factor-recovery-codes', section);
    await section.getByRole('button', { name: 'I have kept them' }).click();
    await section.getByText(/On\./).waitFor();
    assert.equal(await section.getByRole('list', { name: 'Recovery codes' }).count(), 0, 'shown once');

    // Log out, and in again: the second step.
    await page.evaluate(() => localStorage.removeItem('skinservice.token'));
    clock.advance(STEP);
    await logInFirstStep(page, player.username, player.password);
    const step = page.getByRole('form', { name: 'Two-factor login' });
    const totp = step.getByLabel('Code from your app');
    await totp.waitFor();
    assert.equal(await totp.getAttribute('autocomplete'), 'one-time-code');
    assert.equal(await totp.getAttribute('inputmode'), 'numeric');
    assert.match(await step.innerText(), /A recovery code works too/);
    await assertAccessibleInBothThemes(page, 'the second step');
    await screenshot(page, 'web-login-second-step');
    await totp.fill(codeOf(secret) === '000000' ? '111111' : '000000');
    await step.getByRole('button', { name: 'Log in' }).click();
    await step.getByText('This code is wrong or was already used').waitFor();
    assert.equal(await totp.getAttribute('aria-invalid'), 'true');
    assert.equal(page.url(), `${origin}/login`);
    await totp.fill(codeOf(secret));
    await step.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(`${origin}/home`);

    // And with a recovery code.
    await page.evaluate(() => localStorage.removeItem('skinservice.token'));
    await logInFirstStep(page, player.mail, player.password);
    await step.getByRole('button', { name: 'Use a recovery code' }).click();
    const recovery = step.getByLabel('Recovery code');
    assert.equal(await recovery.getAttribute('inputmode'), 'text');
    await recovery.fill(recoveryCodes[0]!);
    await step.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(`${origin}/home`);

    // Turned off by an admin in the user editor, after a confirmation in the page.
    const admin = await openPage();
    await admin.goto(`${origin}/login`);
    await admin.getByLabel('Username or mail').fill('Owner');
    await admin.getByLabel('Password').fill('owner password');
    await admin.getByRole('button', { name: 'Log in' }).click();
    await admin.waitForURL(`${origin}/home`);
    const id = (await service.db.selectFrom('users').select('id').where('username', '=', player.username).executeTakeFirstOrThrow()).id;
    await admin.goto(`${origin}/admin?tab=users&user=${id}`);
    const group = admin.getByRole('group', { name: 'Two-factor login' });
    await group.getByRole('button', { name: 'Turn off two-factor login' }).waitFor();
    await assertAccessibleInBothThemes(admin, 'the user editor');
    await group.getByRole('button', { name: 'Turn off two-factor login' }).click();
    await group.getByRole('alertdialog').getByRole('button', { name: 'Turn off two-factor login' }).click();
    await group.getByText(/Two-factor login is off for/).waitFor();
    await assertAccessibleInBothThemes(admin, 'the user editor after the switch-off');
    assert.match(await group.innerText(), /Off\./);
    assert.equal(
      (await service.call('POST', '/api/auth/login', { body: { username: player.username, password: player.password } })).status,
      200,
    );
  });
});
