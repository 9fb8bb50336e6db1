// The small frictions a newcomer hit (issue 31, items 2, 3, 4 and 7) in a real browser (Debian's Chromium): a
// 64-character skin name without a space on a phone and a desktop, Chinese Copy buttons, the Russian dashboard, a
// table on a phone, the live verdict on a new password, the CustomSkinLoader how-to in three languages, and a deep
// link kept across the login (and its two-factor step) without ever leading to another site. The pages do not
// depend on the database: one suite, on SQLite.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Secret, TOTP } from 'otpauth';
import type { Browser, Locator, Page } from 'playwright-core';
import { browserMissing, DESKTOP, logIn, logInWithToken, openWatchedPage, PHONE, servePagesToBrowser } from '../support/browser.ts';
import { skinFile } from '../support/fixtures.ts';
import { OWNER, PUBLIC_URL, type TestService } from '../support/service.ts';

const skipReason = browserMissing();
const GRAVIT_TOKEN = 'launchserver-shared-secret-0123';
const VIEWPORTS = [
  ['phone', PHONE],
  ['desktop', DESKTOP],
] as const;
/** 64 characters without a space: the longest skin name the API takes. */
const LONG_NAME = `Skin${'Wide'.repeat(15)}`;

describe('newcomer frictions in a browser [sqlite]', () => {
  let service: TestService;
  let browser: Browser;
  let origin: string;
  let close: (() => Promise<void>) | undefined;
  before(async () => {
    if (skipReason) return;
    ({ service, browser, origin, close } = await servePagesToBrowser('sqlite', GRAVIT_TOKEN));
  });
  after(() => close?.());

  const skip = skipReason ?? false;

  /** A new player logged in at `path` in a fresh page; the account's language `language`. */
  const playerPage = async (viewport: { width: number; height: number }, path: string, language = 'en') => {
    const player = await service.registerPlayer();
    await setLanguage(player.token, language);
    const page = await openWatchedPage(browser, origin, { viewport, context: { reducedMotion: 'reduce' } });
    await logInWithToken(page, origin, player.token);
    await page.goto(`${origin}${path}`);
    return { page, player };
  };
  const setLanguage = async (token: string, language: string) =>
    assert.equal((await service.call('PATCH', '/api/home', { token, body: { language } })).status, 200);

  /** The page does not scroll sideways: nothing is wider than the window. */
  const pageFitsWidth = (page: Page) =>
    page.evaluate(() => ({ page: document.documentElement.scrollWidth, window: document.documentElement.clientWidth }));

  /** How many lines an element's text takes. */
  const linesOf = (locator: Locator) =>
    locator.evaluate((element) => {
      const range = document.createRange();
      range.selectNodeContents(element);
      return new Set([...range.getClientRects()].filter((rect) => rect.width > 0).map((rect) => Math.round(rect.top))).size;
    });

  it('keeps a 64-character skin name without a space inside a phone and a desktop window, Wear and Delete in sight', { skip }, async () => {
    for (const [name, viewport] of VIEWPORTS) {
      const { page, player } = await playerPage(viewport, '/home');
      // The first skin is worn; the long-named one is not, so it has Wear and Delete.
      assert.equal((await service.upload('/api/home/skins', player.token, { name: 'Plain' }, skinFile('classic'))).status, 200);
      assert.equal((await service.upload('/api/home/skins', player.token, { name: LONG_NAME }, skinFile('slim'))).status, 200);
      await page.reload();
      const item = page.locator('li', { has: page.getByText(LONG_NAME, { exact: true }) });
      await item.waitFor();
      const { page: width, window } = await pageFitsWidth(page);
      assert.ok(width <= window, `${name}: the page is ${width} px wide in a ${window} px window`);
      for (const button of [
        item.getByRole('button', { name: `Wear ${LONG_NAME}` }),
        item.getByRole('button', { name: `Delete ${LONG_NAME}` }),
      ]) {
        const box = (await button.boundingBox())!;
        assert.ok(box.x >= 0 && box.x + box.width <= viewport.width, `${name}: ${await button.textContent()} at ${box.x}+${box.width}`);
      }
      await page.context().close();
    }
  });

  it('shows Chinese Copy buttons on one line', { skip }, async () => {
    for (const [name, viewport] of VIEWPORTS) {
      const { page } = await playerPage(viewport, '/home', 'zh-CN');
      const buttons = page.locator('.copy button');
      await buttons.first().waitFor();
      assert.equal(await buttons.first().textContent(), '复制');
      for (const button of await buttons.all()) {
        if (!(await button.isVisible())) continue;
        assert.equal(await linesOf(button), 1, `${name}: ${await button.getAttribute('aria-label')} on one line`);
        const height = (await button.boundingBox())!.height;
        const line = await button.evaluate((element) => parseFloat(getComputedStyle(element).lineHeight) || 24);
        assert.ok(height < line * 2, `${name}: the button is ${height} px high, a line ${line} px`);
      }
      await page.context().close();
    }
  });

  it('keeps every word of the Russian dashboard inside its card', { skip }, async () => {
    const ownerToken = await service.ownerToken();
    await setLanguage(ownerToken, 'ru');
    // The longest mode's name (По приглашениям) as the figure.
    assert.equal((await service.call('PUT', '/api/admin/registration', { token: ownerToken, body: { mode: 'invite' } })).status, 200);
    try {
      // Every width where the cards' grid changes its number of columns, near its narrowest.
      for (const [name, viewport] of [
        ...VIEWPORTS,
        ['720 px', { width: 720, height: 900 }],
        ['760 px', { width: 760, height: 900 }],
        ['1000 px', { width: 1000, height: 900 }],
      ] as const) {
        const page = await openWatchedPage(browser, origin, { viewport });
        await logInWithToken(page, origin, ownerToken);
        await page.goto(`${origin}/admin`);
        await page.locator('.figures .card').first().waitFor();
        const overflowing = await page.evaluate(() =>
          [...document.querySelectorAll<HTMLElement>('.figures .card')].flatMap((card) => {
            const edge = card.getBoundingClientRect();
            return [...card.querySelectorAll<HTMLElement>('*')]
              .filter((element) => {
                const box = element.getBoundingClientRect();
                return box.right > edge.right + 0.5 || box.left < edge.left - 0.5 || element.scrollWidth > element.clientWidth + 1;
              })
              .map((element) => element.textContent);
          }),
        );
        assert.deepEqual(overflowing, [], `${name}: words outside their card`);
        await page.context().close();
      }
    } finally {
      await service.call('PUT', '/api/admin/registration', { token: ownerToken, body: { mode: null } });
      await setLanguage(ownerToken, 'en');
    }
  });

  it('says on a phone that a table scrolls sideways, and scrolls the table rather than the page', { skip }, async () => {
    const page = await openWatchedPage(browser, origin, { viewport: PHONE });
    await logInWithToken(page, origin, await service.ownerToken());
    await page.goto(`${origin}/admin?tab=users`);
    const table = page.locator('.table').first();
    await table.locator('tbody tr').first().waitFor();
    const sizes = await table.evaluate((element) => ({ content: element.scrollWidth, shown: element.clientWidth }));
    assert.ok(sizes.content > sizes.shown, `the users table (${sizes.content} px) is wider than its frame (${sizes.shown} px) on a phone`);
    const { page: width, window } = await pageFitsWidth(page);
    assert.ok(width <= window, `the page is ${width} px wide in a ${window} px window`);
    const cue = page.getByText('Scroll sideways to see the whole table');
    await cue.waitFor();
    assert.ok(await cue.isVisible());
    // The shade on the right edge while there is more to the right; at the end, on the left edge.
    const frame = page.locator('.table-frame').first();
    // The shades fade (a CSS transition): each is waited for until it has settled, never read in the middle of a fade.
    const settles = (side: 'before' | 'after', opacity: string) =>
      page.waitForFunction(
        ([pseudo, wanted]) => getComputedStyle(document.querySelector('.table-frame')!, `::${pseudo}`).opacity === wanted,
        [side, opacity] as const,
        { timeout: 5_000 },
      );
    await frame.waitFor();
    await settles('after', '1');
    await settles('before', '0');
    await table.evaluate((element) => element.scrollTo({ left: element.scrollWidth }));
    await page.waitForFunction(() => document.querySelector('.table-frame')?.classList.contains('more-left'));
    await settles('after', '0');
    await settles('before', '1');
    await page.context().close();
  });

  it('says as a new password is typed why it would be refused', { skip }, async () => {
    const page = await openWatchedPage(browser, origin, { viewport: PHONE });
    await page.goto(`${origin}/register`);
    const password = page.getByLabel('Password', { exact: true });
    const verdict = page.locator('.password-verdict');
    const says = async (typed: string, expected: RegExp, what: string) => {
      await password.fill(typed);
      await page.waitForFunction(
        ([pattern, flags]) => new RegExp(pattern!, flags).test(document.querySelector('.password-verdict')?.textContent ?? ''),
        [expected.source, expected.flags],
        { timeout: 5000 },
      );
      assert.match((await verdict.textContent()) ?? '', expected, what);
    };
    const COMMON = /too easy to guess/;
    await says('short', /too short: use at least 8 characters/, 'five characters');
    await says('password', COMMON, 'password');
    await says('12345678', COMMON, '12345678');
    await says('PassWord', COMMON, 'any case of a common one');
    await says('        ', COMMON, 'eight spaces');
    await page.getByLabel('Mail address').fill('Newcomer.Player@example.org');
    await says('newcomer.player@example.org', /must not be your mail address/, 'the mail');
    await says('lantern orchard 47', /will do/, 'a good one');
    // Typing the mail afterwards changes the verdict of the password already there.
    await password.fill('other@example.org');
    await page.getByLabel('Mail address').fill('other@example.org');
    await page.waitForFunction(() => /must not be/.test(document.querySelector('.password-verdict')?.textContent ?? ''));
    // Read out with the field.
    const describedBy = (await password.getAttribute('aria-describedby')) ?? '';
    assert.ok(describedBy.split(' ').includes((await verdict.getAttribute('id'))!), 'the verdict describes the field');
    // One verdict: the switch that shows the password is no second field.
    assert.equal(await verdict.count(), 1);
    await page.context().close();

    // The profile's password change: the player's own name and mail, which the form does not hold.
    const { page: home, player } = await playerPage(DESKTOP, '/home');
    const newPassword = home.getByLabel('New password', { exact: true });
    await newPassword.waitFor();
    const homeVerdict = home.locator('.password-verdict');
    for (const own of [player.username.toUpperCase(), player.mail]) {
      await newPassword.fill(own);
      await home.waitForFunction(() =>
        /must not be your mail address or your player name/.test(document.querySelector('.password-verdict')?.textContent ?? ''),
      );
    }
    await newPassword.fill('12345678');
    await home.waitForFunction(() => /too easy to guess/.test(document.querySelector('.password-verdict')?.textContent ?? ''));
    assert.match((await homeVerdict.getAttribute('class')) ?? '', /refused/);
    await home.context().close();

    // The check itself: the reason, a message, nothing more.
    const asked = await service.call('POST', '/api/auth/password-check', { body: { password: 'Steve2011', names: ['steve2011'] } });
    assert.equal(asked.status, 200);
    assert.deepEqual(asked.body.data, { ok: false, reason: 'ownIdentifier' });
    const good = await service.call('POST', '/api/auth/password-check', { body: { password: 'lantern orchard 47' } });
    assert.deepEqual(good.body.data, { ok: true, reason: null });
  });

  it('tells CustomSkinLoader players the /csl/ root in English, Russian and Chinese', { skip }, async () => {
    const root = `${PUBLIC_URL}/csl/`;
    for (const [language, summary, stale] of [
      ['en', 'CustomSkinLoader', /not offer/],
      ['ru', 'CustomSkinLoader', /пока не/],
      ['zh-CN', 'CustomSkinLoader', /暂未/],
    ] as const) {
      const { page } = await playerPage(DESKTOP, '/home', language);
      const details = page.locator('details', { has: page.locator('summary', { hasText: summary }) });
      await details.locator('summary').click();
      const text = (await details.innerText()) ?? '';
      assert.doesNotMatch(text, stale, `${language}: no "not offered yet"`);
      assert.match(text, /CustomSkinAPI/, language);
      assert.ok(text.includes(root), `${language}: names ${root}`);
      assert.equal(await details.locator('.copy input').inputValue(), root, `${language}: the root to copy`);
      assert.equal((await service.call('GET', '/csl/nobody-by-this-name.json')).status, 404, 'the root answers');
      await page.context().close();
    }
  });

  it('lands on a deep link after the login, also after the two-factor step, and never on another site', { skip }, async () => {
    // The owner opens the audit log without being logged in: sent to log in, then there.
    const page = await openWatchedPage(browser, origin);
    await page.goto(`${origin}/admin?tab=audit`);
    await page.waitForURL(`${origin}/login?next=${encodeURIComponent('/admin?tab=audit')}`);
    await logIn(page, origin, OWNER.username, OWNER.password, { onLoginPage: true, waitForHome: false });
    await page.waitForURL(`${origin}/admin?tab=audit`);
    await page.getByRole('link', { name: 'Audit log' }).waitFor();
    assert.equal(await page.locator('.tabs a.active').textContent(), 'Audit log');
    await page.context().close();

    // A moderator with two-factor login: the same, after the code.
    const moderator = await service.registerPlayer();
    await service.db.updateTable('users').set({ perms: 1 }).where('username', '=', moderator.username).execute();
    const setup = await service.call('POST', '/api/home/2fa', { token: moderator.token, body: { password: moderator.password } });
    assert.equal(setup.status, 200);
    const codeOf = (at: number) =>
      TOTP.generate({ secret: Secret.fromBase32(setup.body.data.secret), algorithm: 'SHA1', digits: 6, period: 30, timestamp: at });
    const confirmed = await service.call('POST', '/api/home/2fa/confirm', { token: moderator.token, body: { code: codeOf(Date.now()) } });
    assert.equal(confirmed.status, 200);
    const second = await openWatchedPage(browser, origin);
    await second.goto(`${origin}/admin?tab=audit`);
    await second.waitForURL(/\/login\?next=/);
    await logIn(second, origin, moderator.username, moderator.password, { onLoginPage: true, waitForHome: false });
    const codeField = second.getByLabel('Code from your app');
    await codeField.waitFor();
    // The next period's code: the one confirming it is used up.
    await codeField.fill(codeOf(Date.now() + 30_000));
    await second.getByRole('button', { name: 'Log in', exact: true }).click();
    await second.waitForURL(`${origin}/admin?tab=audit`);
    await second.context().close();

    // Another site, however it is written, is not a place to land: the profile instead.
    for (const next of ['https://evil.example/', '//evil.example/', '/\\evil.example/', '\t//evil.example', '/login?next=//evil.example']) {
      const visitor = await openWatchedPage(browser, origin);
      await visitor.goto(`${origin}/login?next=${encodeURIComponent(next)}`);
      await logIn(visitor, origin, OWNER.username, OWNER.password, { onLoginPage: true });
      assert.equal(visitor.url(), `${origin}/home`, next);
      await visitor.context().close();
    }
  });
});
