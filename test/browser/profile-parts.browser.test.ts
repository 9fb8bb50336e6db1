// The profile page as a newcomer met it (issue 38, items 5, 9 and 10), in a real browser (Debian's Chromium): its
// parts (wardrobe, game, security, account) reached by the page's own links, by keyboard and by a link from outside;
// a second game profile (the hint that an admin allows more, the wardrobe that says and chooses which profile it
// dresses, the preview that follows, a rename with its own confirmation); and the two-factor setup (no recovery code
// before there is one, the codes at a readable size). The pages do not depend on the database: one suite, on SQLite.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Secret, TOTP } from 'otpauth';
import type { Browser, Page } from 'playwright-core';
import { accessibilityProblems } from '../support/accessibility.ts';
import { browserMissing, DESKTOP, logInWithToken, openWatchedPage, PHONE, screenshot, servePagesToBrowser } from '../support/browser.ts';
import { capeFile, skinFile } from '../support/fixtures.ts';
import { uniqueName, type TestService } from '../support/service.ts';

const skipReason = browserMissing();
const skip = skipReason ?? false;
const GRAVIT_TOKEN = 'launchserver-shared-secret-0123';
const PARTS = {
  en: ['Wardrobe', 'Game', 'Security', 'Account'],
  ru: ['Гардероб', 'Игра', 'Безопасность', 'Аккаунт'],
  'zh-CN': ['衣柜', '游戏', '安全', '账号'],
};

describe('the profile page in parts, a second profile and two-factor setup [sqlite]', () => {
  let service: TestService;
  let browser: Browser;
  let origin: string;
  let close: (() => Promise<void>) | undefined;
  before(async () => {
    if (skipReason) return;
    // The default limit: one game profile per account.
    ({ service, browser, origin, close } = await servePagesToBrowser('sqlite', GRAVIT_TOKEN));
  });
  after(() => close?.());

  const playerPage = async (viewport: { width: number; height: number }, language = 'en') => {
    const player = await service.registerPlayer();
    assert.equal((await service.call('PATCH', '/api/home', { token: player.token, body: { language } })).status, 200);
    const page = await openWatchedPage(browser, origin, { viewport, context: { reducedMotion: 'reduce' } });
    await logInWithToken(page, origin, player.token);
    return { page, player };
  };
  /** The heading that has the focus, and where it is in the window. */
  const focusedHeading = (page: Page) =>
    page.evaluate(() => {
      const element = document.activeElement as HTMLElement;
      return { tag: element.tagName, text: element.textContent ?? '', top: element.getBoundingClientRect().top };
    });

  it('groups the profile in four parts, each a link that jumps there by keyboard, in three languages', { skip }, async () => {
    for (const language of ['en', 'ru', 'zh-CN'] as const) {
      const { page } = await playerPage(PHONE, language);
      await page.goto(`${origin}/home`);
      const names = PARTS[language];
      const nav = page.locator('nav.parts-nav');
      await nav.getByRole('link', { name: names[0] }).waitFor();
      assert.deepEqual(await nav.getByRole('link').allInnerTexts(), names);
      assert.deepEqual(await page.locator('main h2').allInnerTexts(), names, `${language}: the parts are the page's headings`);
      // Every card sits in a part, as a heading under the part's.
      assert.equal(await page.locator('main .card h2').count(), 0, `${language}: no card heading at the level of a part`);
      for (const [index, name] of names.entries()) {
        const link = nav.getByRole('link', { name });
        // A plain link to the heading: it works without the page's script, and opens in a new tab too.
        assert.equal(await link.getAttribute('href'), `#${['wardrobe', 'game', 'security', 'account'][index]}`);
      }
      // By keyboard: focus the link, press Enter, and the part's heading has the focus, in sight below the strip.
      await nav.getByRole('link', { name: names[2] }).focus();
      await page.keyboard.press('Enter');
      await page.waitForFunction((name) => document.activeElement?.textContent === name, names[2]);
      const security = await focusedHeading(page);
      assert.equal(security.tag, 'H2');
      const strip = (await nav.boundingBox())!;
      assert.ok(security.top >= strip.height - 1 && security.top < PHONE.height / 2, `${language}: the heading at ${security.top}`);
      // Tab goes on from there: into the security part, not back to the top of the page.
      await page.keyboard.press('Tab');
      assert.ok(
        await page.evaluate(() => document.querySelector('#security')!.closest('section')!.contains(document.activeElement)),
        `${language}: Tab goes on inside the part`,
      );
      // The strip stays in sight: back to the wardrobe from down there.
      await nav.getByRole('link', { name: names[0] }).click();
      await page.waitForFunction((name) => document.activeElement?.textContent === name, names[0]);
      if (language === 'en') {
        assert.deepEqual(await accessibilityProblems(page), []);
        await screenshot(page, 'profile-parts-phone');
      }
      await page.context().close();
    }
  });

  it('opens at a part when a link from outside names it', { skip }, async () => {
    const { page } = await playerPage(DESKTOP);
    await page.goto(`${origin}/home#account`);
    await page.waitForFunction(() => document.activeElement?.id === 'account');
    const account = await focusedHeading(page);
    assert.ok(account.top >= 0 && account.top < DESKTOP.height - 50, `the Account heading at ${account.top}`);
    await page.context().close();
  });

  it(
    'says an admin can allow more profiles; with two, the wardrobe says whom it dresses and dresses the chosen one',
    { skip },
    async () => {
      const { page, player } = await playerPage(DESKTOP);
      const plain = (await service.upload('/api/home/skins', player.token, { name: 'Plain' }, skinFile('classic'))).body.data;
      const second = (await service.upload('/api/home/skins', player.token, { name: 'Slim one' }, skinFile('slim'))).body.data;
      const owner = await service.ownerToken();
      const userId = (await service.db.selectFrom('users').select('id').where('username', '=', player.username).executeTakeFirstOrThrow())
        .id;
      const cape = await service.upload(
        '/api/admin/user/cape/upload',
        owner,
        { name: 'Founders', owners: String(userId) },
        capeFile('cape'),
      );
      assert.equal(cape.status, 200);
      await page.goto(`${origin}/home`);
      const profiles = page.getByRole('region', { name: 'Game profiles' });
      await profiles.getByText('Your account may have one game profile: this one.').waitFor();
      await profiles.getByText('An admin can allow your account more profiles.').waitFor();
      assert.equal(await page.getByLabel('Dress the profile').count(), 0, 'one profile: nothing to choose');

      // The admin raises the account's own limit; the player adds a second profile.
      const raised = await service.call('PATCH', `/api/admin/user/${userId}`, { token: owner, body: { max_profiles: 2 } });
      assert.equal(raised.status, 200, JSON.stringify(raised.body));
      await page.reload();
      const altName = uniqueName('Alt').slice(0, 12);
      await profiles.getByLabel('Name of the new profile').fill(altName);
      await profiles.getByRole('button', { name: 'Add profile' }).click();
      await profiles.getByText(`The profile ${altName} is added.`).waitFor();

      // The wardrobe dresses the primary profile unless the player chooses, and says so.
      const choice = page.getByLabel('Dress the profile');
      assert.equal(await choice.locator('option:checked').innerText(), `${player.username} (primary)`);
      await page.getByText(`Wear buttons below dress ${player.username}, and the preview shows ${player.username}.`).waitFor();
      await choice.selectOption({ label: altName });
      await page.getByText(`Wear buttons below dress ${altName}, and the preview shows ${altName}.`).waitFor();
      await page.locator(`canvas[aria-label="3D preview of ${altName}"]`).waitFor();
      const skins = page.getByRole('region', { name: 'Your skins' });
      await skins.getByRole('button', { name: `Wear Slim one on ${altName}` }).click();
      await skins.getByText(`${altName} now wears Slim one.`).waitFor();
      const capes = page.getByRole('region', { name: 'Your capes' });
      await capes.getByRole('button', { name: `Wear Founders on ${altName}` }).click();
      await capes.getByText(`${altName} now wears the cape Founders.`).waitFor();
      const listed = (await service.call('GET', '/api/home/profiles', { token: player.token })).body.data as {
        name: string;
        selected_skin: string | null;
        selected_cape: string | null;
      }[];
      const alt = listed.find((profile) => profile.name === altName)!;
      const primary = listed.find((profile) => profile.name === player.username)!;
      assert.deepEqual([alt.selected_skin, alt.selected_cape], [second.uuid, cape.body.data.uuid], 'the chosen profile is dressed');
      assert.deepEqual([primary.selected_skin, primary.selected_cape], [plain.uuid, null], 'the primary one is not');
      // The preview shows the chosen profile: its skin and cape; the marks of what is worn follow it.
      await page.waitForFunction(
        ([skin, capeUuid]) => {
          const frame = document.querySelector('[data-skin]');
          return frame?.getAttribute('data-skin')?.includes(skin!) && frame.getAttribute('data-cape')?.includes(capeUuid!);
        },
        [second.uuid, cape.body.data.uuid],
      );
      assert.equal(await skins.getByRole('button', { name: `Wear Plain on ${altName}` }).count(), 1);
      await choice.selectOption({ label: `${player.username} (primary)` });
      await skins.getByRole('button', { name: `Wear Slim one on ${player.username}` }).waitFor();
      await page.waitForFunction((skin) => document.querySelector('[data-skin]')?.getAttribute('data-skin')?.includes(skin), plain.uuid);
      await screenshot(page, 'profile-parts-dressing');

      // A rename says so in place of the profile's last message.
      const item = profiles.getByRole('listitem', { name: `Profile ${altName}` });
      await item.getByLabel(`Skin of ${altName}`).selectOption({ label: 'Plain' });
      await item.getByText(`${altName} now wears Plain.`).waitFor();
      const renamed = uniqueName('Two').slice(0, 12);
      await item.getByRole('button', { name: `Rename ${altName}` }).click();
      await profiles.getByLabel(`New name for ${altName}`).fill(renamed);
      await profiles.getByLabel(`New name for ${altName}`).press('Enter');
      const renamedItem = profiles.getByRole('listitem', { name: `Profile ${renamed}` });
      await renamedItem.getByText(`The profile ${altName} is now called ${renamed}.`).waitFor();
      assert.equal(await renamedItem.getByText(`${altName} now wears Plain.`).count(), 0, 'the old message is gone');
      assert.equal(await choice.locator(`option`, { hasText: renamed }).count(), 1, 'the wardrobe knows the new name');
      assert.deepEqual(await accessibilityProblems(page), []);
      await page.context().close();
    },
  );

  it('asks for the first code without promising a recovery code, then shows the codes large with room around', { skip }, async () => {
    const { page, player } = await playerPage(PHONE);
    await page.goto(`${origin}/home#security`);
    const section = page.getByRole('region', { name: 'Two-factor login' });
    await section.getByRole('button', { name: 'Turn on two-factor login' }).click();
    await section.getByLabel('Your password').fill(player.password);
    await section.getByRole('button', { name: 'Continue' }).click();
    const secret = await section.getByRole('textbox', { name: 'Secret (to type into the app)', exact: true }).inputValue();
    const codeField = section.getByLabel('Code the app shows now');
    const hint = await page.locator(`#${(await codeField.getAttribute('aria-describedby'))!.split(' ')[0]}`).innerText();
    assert.equal(hint, 'The 6-digit code your authenticator app shows now.');
    assert.doesNotMatch(await section.innerText(), /recovery code/i, 'no recovery code exists yet');
    await codeField.fill(TOTP.generate({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }));
    await section.getByRole('button', { name: 'Turn on', exact: true }).click();
    const codes = section.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
    await codes.nth(9).waitFor();
    const size = await codes
      .first()
      .locator('code')
      .evaluate((code) => parseFloat(getComputedStyle(code).fontSize));
    assert.ok(size >= 16, `the codes at ${size} px`);
    const copy = (await section.getByRole('button', { name: 'Copy' }).boundingBox())!;
    const kept = (await section.getByRole('button', { name: 'I have kept them' }).boundingBox())!;
    assert.ok(kept.y - (copy.y + copy.height) >= 12, `${kept.y - (copy.y + copy.height)} px between the copy field and the button`);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= PHONE.width, `the page is ${width} px wide`);
    await screenshot(page, 'profile-parts-recovery-codes', section);
    await page.context().close();
  });
});
