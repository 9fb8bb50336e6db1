// Registration as a newcomer meets it (issue 31, item 5), in a real browser: the tab that registers and confirms is
// asked for the password once, on the first page, and never logs in by hand; its confirm page sends the mail again
// with one button (the service's limit answers with a message first); a link opened in another browser confirms but
// leaves the login to the password; and the login's refusal of an unconfirmed account sends the mail again, after
// which the code logs that tab in. Mails are read from the test's SMTP server.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { Secret, TOTP } from 'otpauth';
import type { Browser, Page } from 'playwright-core';
import { accessibilityProblems } from '../support/accessibility.ts';
import { browserMissing, DESKTOP, openWatchedPage, PHONE, screenshot, servePagesToBrowser } from '../support/browser.ts';
import { describeEachDatabase } from '../support/databases.ts';
import { PUBLIC_URL, randomAddress, uniqueName, type TestService } from '../support/service.ts';
import { codeIn, linkIn, mailTo } from '../support/smtp.ts';

const skipReason = browserMissing();
const GRAVIT_TOKEN = 'launchserver-shared-secret-0123';
const PASSWORD = 'correct horse battery';
/** The real time, moved on by the tests past the service's wait of one mail a minute to an address. */
const clock = {
  ahead: 0,
  now: () => Date.now() + clock.ahead,
};

describeEachDatabase('registration in one tab, in a browser', (kind) => {
  let service: TestService;
  let browser: Browser;
  let origin: string;
  let close: (() => Promise<void>) | undefined;
  before(async () => {
    if (skipReason) return;
    ({ service, browser, origin, close } = await servePagesToBrowser(kind, GRAVIT_TOKEN, clock));
  });
  after(() => close?.());

  /** A page that counts the password fields typed into and the logins sent. */
  const openCountingPage = async (viewport: { width: number; height: number }) => {
    const page = await openWatchedPage(browser, origin, { viewport });
    const counted = { passwordsTyped: 0, logins: 0 };
    page.on('request', (request) => void (request.url().endsWith('/api/auth/login') && (counted.logins += 1)));
    const typePassword = async (label: string | RegExp, value: string) => {
      const field = page.getByLabel(label, { exact: typeof label === 'string' });
      assert.equal(await field.getAttribute('type'), 'password');
      await field.fill(value);
      counted.passwordsTyped += 1;
    };
    return { page, counted, typePassword };
  };
  const mailsTo = (mail: string) => service.mailbox.messages.filter(mailTo(mail));
  const nextMail = (mail: string, seen: number) =>
    service.mailbox.waitFor((candidate) => mailTo(mail)(candidate) && mailsTo(mail).indexOf(candidate) >= seen);
  const passwordFields = (page: Page) => page.locator('input[type=password]').count();
  const assertAccessible = async (page: Page, what: string) => {
    await page.waitForLoadState('networkidle');
    assert.deepEqual(await accessibilityProblems(page), [], what);
  };

  for (const [device, viewport] of [
    ['phone', PHONE],
    ['desktop', DESKTOP],
  ] as const) {
    it(
      `${device}: the tab that registers and confirms types the password on the first page only`,
      { skip: skipReason ?? false },
      async () => {
        const { page, counted, typePassword } = await openCountingPage(viewport);
        const username = uniqueName('tab');
        const mail = `${username}@example.org`;
        await page.goto(`${origin}/register`);
        await page.getByLabel('Mail address').fill(mail);
        await typePassword('Password', PASSWORD);
        await typePassword('Password (again)', PASSWORD);
        await page.getByRole('button', { name: 'Register' }).click();
        await page.waitForURL(`${origin}/register/confirm`);
        const firstCode = codeIn(await nextMail(mail, 0));
        await page.getByText('This tab registered: confirming logs you in at once.').waitFor();

        // No mail seen? One button sends it again, no password asked; the limit's message comes first.
        const sendAgain = page.getByRole('region', { name: 'No mail?' });
        await sendAgain.getByText(`we send a new code to ${mail}`).waitFor();
        assert.equal(await passwordFields(page), 0, 'the confirm page asks for no password');
        await sendAgain.getByRole('button', { name: 'Send the mail again' }).click();
        await sendAgain
          .getByRole('alert')
          .getByText(/wait a minute/)
          .waitFor();
        assert.equal(mailsTo(mail).length, 1);
        clock.ahead += 61_000;
        await sendAgain.getByRole('button', { name: 'Send the mail again' }).click();
        await sendAgain
          .getByRole('status')
          .filter({ hasText: `We sent a new code to ${mail}.` })
          .waitFor();
        const code = codeIn(await nextMail(mail, 1));
        assert.notEqual(code, firstCode);
        await assertAccessible(page, `${device} confirm page of the registering tab`);
        await screenshot(page, `${kind}-registration-same-tab-confirm-${device}`);

        // The code typed in this tab logs in: straight on to step 3, which asks for the name only.
        await page.getByLabel('Code from the mail').fill(`${code.slice(0, 5)}-${code.slice(5)}`);
        await page.getByRole('button', { name: 'Confirm' }).click();
        await page.waitForURL(`${origin}/register/finish`);
        assert.equal(await passwordFields(page), 0, 'step 3 asks for no password');
        await page.getByLabel('Username').fill(username);
        await page.getByRole('button', { name: 'Finish' }).click();
        await page.waitForURL(`${origin}/home`);
        await page.getByRole('heading', { name: username }).waitFor();
        assert.deepEqual(counted, { passwordsTyped: 2, logins: 0 }, 'the password and its confirmation on page one, no login');
        // The continuation was for that code only: it is gone from the tab.
        assert.equal(await page.evaluate(() => sessionStorage.getItem('skinservice.registration')), null);
      },
    );
  }

  it('a link opened in another browser confirms, and the password logs in there', { skip: skipReason ?? false }, async () => {
    const { page } = await openCountingPage(PHONE);
    const mail = `${uniqueName('other')}@example.org`;
    await page.goto(`${origin}/register`);
    await page.getByLabel('Mail address').fill(mail);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Password (again)').fill(PASSWORD);
    await page.getByRole('button', { name: 'Register' }).click();
    await page.waitForURL(`${origin}/register/confirm`);
    const link = linkIn(await nextMail(mail, 0));

    const elsewhere = await openCountingPage(PHONE);
    await elsewhere.page.goto(link.replace(PUBLIC_URL, origin));
    await elsewhere.page.waitForURL(`${origin}/login`);
    await elsewhere.page.getByText('Your mail address is confirmed').waitFor();
    await elsewhere.page.getByLabel('Username or mail').fill(mail);
    await elsewhere.typePassword('Password', PASSWORD);
    await elsewhere.page.getByRole('button', { name: 'Log in', exact: true }).click();
    await elsewhere.page.waitForURL(`${origin}/register/finish`);
    assert.equal(elsewhere.counted.logins, 1, 'the other browser logs in with the password');
  });

  it(
    "the login's refusal of an unconfirmed account sends the mail again; its code then logs the tab in",
    { skip: skipReason ?? false },
    async () => {
      const mail = `${uniqueName('late')}@example.org`;
      assert.equal((await service.call('POST', '/api/auth/register', { body: { mail, password: PASSWORD } })).status, 200);
      await nextMail(mail, 0);
      const { page, counted, typePassword } = await openCountingPage(PHONE);
      await page.goto(`${origin}/login`);
      await page.getByLabel('Username or mail').fill(mail);
      await typePassword('Password', PASSWORD);
      await page.getByRole('button', { name: 'Log in', exact: true }).click();
      await page.getByRole('alert').getByText('Confirm your mail address first').waitFor();
      await page.getByText('Your mail address is not confirmed yet').waitFor();
      await assertAccessible(page, 'the login refusal of an unconfirmed account');
      await screenshot(page, `${kind}-login-unconfirmed-phone`);
      const sendAgain = page.getByRole('button', { name: 'Send the mail again' });
      await sendAgain.click();
      // The registration's mail went less than a minute ago: the service says to wait, and sends nothing.
      await page
        .getByRole('alert')
        .getByText(/wait a minute/)
        .waitFor();
      assert.equal(mailsTo(mail).length, 1);
      clock.ahead += 61_000;
      await sendAgain.click();
      await page.waitForURL(`${origin}/register/confirm`);
      await page.getByText(`We sent a new code to ${mail}.`).waitFor();
      const code = codeIn(await nextMail(mail, 1));
      await page.getByLabel('Code from the mail').fill(code);
      await page.getByRole('button', { name: 'Confirm' }).click();
      await page.waitForURL(`${origin}/register/finish`);
      assert.equal(counted.passwordsTyped, 1, 'the password of the login, not again');
    },
  );

  it(
    'the login lock names the minutes, and a two-factor code used already says to wait for the next',
    { skip: skipReason ?? false },
    async () => {
      // Ten wrong passwords for the account from the browser's address: the page says when to come back.
      const locked = await service.registerPlayer();
      for (let attempt = 0; attempt < 10; attempt += 1) {
        await service.call('POST', '/api/auth/login', {
          body: { username: locked.username, password: `wrong ${attempt}` },
          ip: '127.0.0.1',
        });
      }
      const { page } = await openCountingPage(PHONE);
      await page.goto(`${origin}/login`);
      await page.getByLabel('Username or mail').fill(locked.username);
      await page.getByLabel('Password', { exact: true }).fill(locked.password);
      await page.getByRole('button', { name: 'Log in', exact: true }).click();
      await page
        .getByRole('alert')
        .getByText('Too many failed logins for this account from your address; try again in 15 minutes')
        .waitFor();

      // A code the player used a moment ago (in the launcher, say): the second step says to wait for the next one.
      const player = await service.registerPlayer();
      const setup = await service.call('POST', '/api/home/2fa', { token: player.token, body: { password: player.password } });
      const secret = Secret.fromBase32(setup.body.data.secret as string);
      const codeAt = (ms: number) => TOTP.generate({ secret, algorithm: 'SHA1', digits: 6, period: 30, timestamp: ms });
      const turnedOn = await service.call('POST', '/api/home/2fa/confirm', { token: player.token, body: { code: codeAt(clock.now()) } });
      assert.equal(turnedOn.status, 200);
      clock.ahead += 30_000;
      const code = codeAt(clock.now());
      const used = await service.call('POST', '/api/auth/login', {
        body: { username: player.username, password: player.password, totp: code },
        ip: randomAddress(),
      });
      assert.equal(used.status, 200);
      const second = await openCountingPage(PHONE);
      await second.page.goto(`${origin}/login`);
      await second.page.getByLabel('Username or mail').fill(player.username);
      await second.page.getByLabel('Password', { exact: true }).fill(player.password);
      await second.page.getByRole('button', { name: 'Log in', exact: true }).click();
      const step = second.page.getByRole('form', { name: 'Two-factor login' });
      await step.getByLabel('Code from your app').fill(code);
      await step.getByRole('button', { name: 'Log in' }).click();
      await step.getByText(/already used: wait for the next code/).waitFor();
      await screenshot(second.page, `${kind}-two-factor-used-code-phone`);
    },
  );
});
