// Registration as a newcomer meets it (issues 31 and 38, contract section 15b), in a real browser: the tab that
// registers and confirms is asked for the password once, on the first page (with a switch that shows it), and never
// logs in by hand; its confirm page sends the mail again with one button (the service's limit answers with a message
// first); a link opened in another browser asks for the password before it confirms, and the registering tab notices
// and sends its player to log in (or, when another tab of the same browser confirmed, on to step 3); a typed code
// elsewhere needs its address; a stranger's later registration of the address leaves the victim's tab asking for a
// password; a taken name shows on its field; and the login's refusal of an unconfirmed account sends the mail again,
// after which the code logs that tab in. Mails are read from the test's SMTP server.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { Secret, TOTP } from 'otpauth';
import type { Browser, Page } from 'playwright-core';
import { accessibilityProblems } from '../support/accessibility.ts';
import { browserMissing, DESKTOP, logIn, openWatchedPage, PHONE, screenshot, servePagesToBrowser } from '../support/browser.ts';
import { describeEachDatabase } from '../support/databases.ts';
import { OWNER, PUBLIC_URL, randomAddress, uniqueName, type TestService } from '../support/service.ts';
import { codeIn, linkIn, mailTo, typedCodeIn } from '../support/smtp.ts';

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

  /** Fills and sends the register page, the password once. */
  const registerIn = async (page: Page, mail: string, typePassword: (label: string, value: string) => Promise<void>) => {
    await page.goto(`${origin}/register`);
    await page.getByLabel('Mail address').fill(mail);
    await typePassword('Password', PASSWORD);
    await page.getByRole('button', { name: 'Register' }).click();
    await page.waitForURL(`${origin}/register/confirm`);
  };

  for (const [device, viewport] of [
    ['phone', PHONE],
    ['desktop', DESKTOP],
  ] as const) {
    it(
      `${device}: the tab that registers and confirms types the password once, on the first page`,
      { skip: skipReason ?? false },
      async () => {
        const { page, counted, typePassword } = await openCountingPage(viewport);
        const username = uniqueName('tab');
        const mail = `${username}@example.org`;
        await page.goto(`${origin}/register`);
        await page.getByLabel('Mail address').fill(mail);
        await typePassword('Password', PASSWORD);
        // Asked once: a switch shows what was typed instead of a second field.
        assert.equal(await passwordFields(page), 1, 'one password field');
        await page.getByLabel('Show password').check();
        assert.equal(await page.getByLabel('Password', { exact: true }).getAttribute('type'), 'text');
        assert.equal(await page.getByLabel('Password', { exact: true }).inputValue(), PASSWORD);
        await assertAccessible(page, `${device} register page, the password shown`);
        await page.getByLabel('Show password').uncheck();
        await page.getByRole('button', { name: 'Register' }).click();
        await page.waitForURL(`${origin}/register/confirm`);
        const firstCode = typedCodeIn(await nextMail(mail, 0));
        await page.getByText('This browser registered: confirming logs you in at once.').waitFor();

        // No mail seen? One button sends it again, no password asked; the limit's message comes first.
        const sendAgain = page.getByRole('region', { name: 'No mail?' });
        await sendAgain.getByText(`we send a new code to ${mail}`).waitFor();
        assert.equal(await passwordFields(page), 0, 'the confirm page asks for no password');
        assert.equal(await page.getByLabel('Mail address').count(), 0, 'nor for the address');
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
        const code = typedCodeIn(await nextMail(mail, 1));
        assert.notEqual(code, firstCode);
        await assertAccessible(page, `${device} confirm page of the registering tab`);
        await screenshot(page, `${kind}-registration-same-tab-confirm-${device}`);

        // The code typed in this tab logs in: straight on to step 3, which asks for the name in the game only.
        await page.getByLabel('Code from the mail').fill(`${code.slice(0, 5)}-${code.slice(5)}`);
        await page.getByRole('button', { name: 'Confirm' }).click();
        await page.waitForURL(`${origin}/register/finish`);
        assert.equal(await passwordFields(page), 0, 'step 3 asks for no password');
        await page.getByText('other players see this name in the game').waitFor();
        await page.getByLabel('Your name in the game').fill(username);
        await page.getByRole('button', { name: 'Finish' }).click();
        await page.waitForURL(`${origin}/home`);
        await page.getByRole('heading', { name: username }).waitFor();
        assert.deepEqual(counted, { passwordsTyped: 1, logins: 0 }, 'the password once, on page one, no login');
        // The continuation was for that registration only: this browser keeps it no more.
        assert.equal(await page.evaluate(() => localStorage.getItem('skinservice.registration')), null);
      },
    );
  }

  /** Registers `mail` through the API from an address of its own (the browser's, 127.0.0.1, has ten mails an hour). */
  const registerByApi = async (mail: string) => {
    const seen = mailsTo(mail).length;
    const registered = await service.call('POST', '/api/auth/register', { body: { mail, password: PASSWORD }, ip: randomAddress() });
    assert.equal(registered.status, 200);
    return nextMail(mail, seen);
  };

  it("step 3 says a taken name on the name's field", { skip: skipReason ?? false }, async () => {
    const { page } = await openCountingPage(PHONE);
    const mail = `${uniqueName('taken')}@example.org`;
    const sent = await registerByApi(mail);
    assert.equal((await service.call('POST', '/api/auth/confirm', { body: { code: codeIn(sent) } })).status, 200);
    await logIn(page, origin, mail, PASSWORD, { waitForHome: false });
    await page.waitForURL(`${origin}/register/finish`);
    const name = page.getByLabel('Your name in the game');
    await name.fill(OWNER.username.toUpperCase());
    await page.getByRole('button', { name: 'Finish' }).click();
    await page.locator('input[name="username"][aria-invalid="true"]').waitFor();
    const error = page.locator(`#${(await name.getAttribute('aria-describedby'))!.split(' ').at(-1)}`);
    assert.equal(await error.innerText(), `The name ${OWNER.username.toUpperCase()} is taken: choose another one.`);
    assert.equal(await page.locator('form .notice').count(), 0, 'nothing under the button');
    await page.waitForFunction(() => document.activeElement?.getAttribute('name') === 'username');
    await screenshot(page, `${kind}-registration-name-taken-phone`);
  });

  it(
    'a link opened on another device asks for the password before it confirms; the registering tab notices',
    { skip: skipReason ?? false },
    async () => {
      const { page, typePassword } = await openCountingPage(PHONE);
      const mail = `${uniqueName('other')}@example.org`;
      await registerIn(page, mail, typePassword);
      await page.getByText('This browser registered').waitFor();
      const link = linkIn(await nextMail(mail, 0));

      // Another browser (another device): nothing confirms until a password is chosen there.
      const elsewhere = await openCountingPage(PHONE);
      await elsewhere.page.goto(link.replace(PUBLIC_URL, origin));
      await elsewhere.page.getByText('This browser did not register the account: choose its password, then confirm.').waitFor();
      assert.equal(await elsewhere.page.getByLabel('Mail address').count(), 0, "the link's code needs no address");
      await assertAccessible(elsewhere.page, 'the confirm page of another browser');
      // The narrowest phone: nothing wider than the screen, the link's long code included.
      await elsewhere.page.setViewportSize({ width: 360, height: 740 });
      assert.ok(await elsewhere.page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'no overflow at 360 px');
      await screenshot(elsewhere.page, `${kind}-registration-confirm-elsewhere-phone`);
      assert.equal(
        (await service.db.selectFrom('users').select('mail_verify').where('mail', '=', mail).executeTakeFirstOrThrow()).mail_verify,
        0,
        'not confirmed by opening the link',
      );
      await elsewhere.typePassword('Password', 'chosen on the phone');
      await elsewhere.page.getByRole('button', { name: 'Confirm' }).click();
      await elsewhere.page.waitForURL(`${origin}/register/finish`);
      assert.equal(elsewhere.counted.logins, 0, 'logged in by confirming with the password chosen');

      // The registering tab sees it within seconds and sends its player to log in, with that password.
      await page.waitForURL(`${origin}/login`, { timeout: 15_000 });
      await page.getByText('Your mail address was confirmed in another browser or on another device.').waitFor();
      await assertAccessible(page, 'the login page after a confirmation elsewhere');
      await page.getByLabel('Username or mail').fill(mail);
      await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await page.getByRole('button', { name: 'Log in', exact: true }).click();
      await page.getByRole('alert').waitFor();
      await page.getByLabel('Password', { exact: true }).fill('chosen on the phone');
      await page.getByRole('button', { name: 'Log in', exact: true }).click();
      await page.waitForURL(`${origin}/register/finish`);
    },
  );

  it(
    'the link opened in another tab of the registering browser logs in there, and the registering tab goes on to step 3',
    { skip: skipReason ?? false },
    async () => {
      const { page, counted, typePassword } = await openCountingPage(DESKTOP);
      const mail = `${uniqueName('twotabs')}@example.org`;
      await registerIn(page, mail, typePassword);
      const link = linkIn(await nextMail(mail, 0));
      const second = await page.context().newPage();
      await second.goto(link.replace(PUBLIC_URL, origin));
      await second.waitForURL(`${origin}/register/finish`);
      await page.bringToFront();
      await page.waitForURL(`${origin}/register/finish`, { timeout: 15_000 });
      await page.getByLabel('Your name in the game').waitFor();
      assert.deepEqual(counted, { passwordsTyped: 1, logins: 0 });
    },
  );

  it(
    'a typed code in another browser needs the address it came to and a password; a later registration asks in the registering tab too',
    { skip: skipReason ?? false },
    async () => {
      const mail = `${uniqueName('typed')}@example.org`;
      const typed = typedCodeIn(await registerByApi(mail));

      const elsewhere = await openCountingPage(PHONE);
      await elsewhere.page.goto(`${origin}/register/confirm`);
      // The confirm form comes first; the card under it sends the mail again and has an address of its own.
      const confirmForm = elsewhere.page.locator('form').first();
      await confirmForm.getByLabel('Code from the mail').fill(typed);
      await confirmForm.getByLabel('Mail address').fill(`someone.else.${mail}`);
      await elsewhere.typePassword('Password', 'chosen in another browser');
      await elsewhere.page.getByRole('button', { name: 'Confirm' }).click();
      await elsewhere.page.locator('input[name="code"][aria-invalid="true"]').waitFor();
      await confirmForm.getByLabel('Mail address').fill(mail);
      await elsewhere.page.getByRole('button', { name: 'Confirm' }).click();
      await elsewhere.page.waitForURL(`${origin}/register/finish`);
      assert.equal((await service.call('POST', '/api/auth/login', { body: { username: mail, password: PASSWORD } })).status, 401);

      // The review's L2 in a browser: the address is registered again by someone else; the newest mail's link,
      // opened in the victim's own tab, asks for a password instead of confirming the stranger's.
      const victimMail = `${uniqueName('victim')}@example.org`;
      const victim = await openCountingPage(PHONE);
      await registerIn(victim.page, victimMail, victim.typePassword);
      await nextMail(victimMail, 0);
      clock.ahead += 61_000;
      const stranger = await service.call('POST', '/api/auth/register', {
        body: { mail: victimMail, password: 'stranger password' },
        ip: randomAddress(),
      });
      assert.equal(stranger.status, 200);
      const newest = linkIn(await nextMail(victimMail, 1));
      await victim.page.goto(newest.replace(PUBLIC_URL, origin));
      await victim.page
        .getByText('This address was registered more than once: choose the password of the account, then confirm.')
        .waitFor();
      await victim.page.getByRole('alert').getByText('Choose the password of your account to confirm').waitFor();
      await victim.typePassword('Password', 'the victim chose this');
      await victim.page.getByRole('button', { name: 'Confirm' }).click();
      await victim.page.waitForURL(`${origin}/register/finish`);
      const login = (password: string) => service.call('POST', '/api/auth/login', { body: { username: victimMail, password } });
      assert.equal((await login('stranger password')).status, 401, "the stranger's password never logs in");
      assert.equal((await login('the victim chose this')).status, 200);
    },
  );

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

  it(
    'a changed mail address is confirmed by its link, with no password asked; a reset code typed by hand goes with its address',
    { skip: skipReason ?? false },
    async () => {
      // A new hour for the mail limits of the browser's address (127.0.0.1), which the tests above spent.
      clock.ahead += 3600_000;
      // The mail change: the link leads to a page of its own, which confirms at once, asking for no password.
      const player = await service.registerPlayer();
      const page = await openWatchedPage(browser, origin, { viewport: PHONE });
      await logIn(page, origin, player.username, player.password);
      const newMail = `${uniqueName('moved')}@example.net`;
      const form = page.locator('section.card', { has: page.getByRole('heading', { name: 'Change mail address' }) });
      await form.getByLabel('New mail address').fill(newMail);
      await form.getByLabel('Current password').fill(player.password);
      await form.getByRole('button', { name: 'Change mail' }).click();
      const link = linkIn(await nextMail(newMail, 0));
      assert.ok(link.startsWith(`${PUBLIC_URL}/mail/confirm?code=`), link);
      await page.goto(link.replace(PUBLIC_URL, origin));
      await page.getByRole('status').getByText('Your mail address is confirmed.').waitFor();
      assert.equal(await passwordFields(page), 0);
      await assertAccessible(page, 'a changed mail address confirmed');
      await page.getByRole('link', { name: 'Go to your profile' }).click();
      await page.waitForURL(`${origin}/home`);
      const home = await service.call('GET', '/api/home', {
        token: (await page.evaluate(() => localStorage.getItem('skinservice.token')))!,
      });
      assert.equal(home.body.data.Mail, newMail);

      // The reset: the code typed by hand on the page the reset request led to, with the address filled in.
      const reset = await openWatchedPage(browser, origin, { viewport: PHONE });
      await reset.goto(`${origin}/reset`);
      await reset.getByLabel('Mail address').fill(newMail);
      await reset.getByRole('button', { name: 'Send a reset code' }).click();
      await reset.waitForURL(`${origin}/reset/confirm`);
      const typed = typedCodeIn(await nextMail(newMail, 1));
      assert.equal(await reset.getByLabel('Mail address').inputValue(), newMail, 'the address the reset was asked for');
      await reset.getByLabel('Code from the mail').fill(typed.toLowerCase());
      await reset.getByRole('button', { name: 'Continue' }).click();
      await reset.getByLabel('New password').fill('typed reset password');
      await reset.getByRole('button', { name: 'Set the new password' }).click();
      await reset.waitForURL(`${origin}/login`);
      const login = await service.call('POST', '/api/auth/login', { body: { username: newMail, password: 'typed reset password' } });
      assert.equal(login.status, 200);
    },
  );
});
