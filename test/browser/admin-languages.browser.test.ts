// The admin console in Russian and in Chinese, in a real browser (Debian's Chromium) on a desktop: the owner, whose
// account and browser speak the language, opens every section (and a player's editor, with a role, a skin, a cape,
// hardware, an invitation and the audit entries these made) and no English is left in what the page shows, besides
// names, addresses and numbers; every section passes axe-core's check in both themes.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { after, before, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { HARDWARE_INFO_EXAMPLE } from '../../src/gravit/shapes.ts';
import { SECTIONS } from '../../web/src/pages/admin/sections.ts';
import { accessibilityProblems } from '../support/accessibility.ts';
import { describeEachDatabase } from '../support/databases.ts';
import {
  browserMissing,
  logInWithToken,
  openWatchedPage,
  problemsOf,
  screenshot,
  servePagesToBrowser,
  SITE_NAME,
} from '../support/browser.ts';
import { capeFile, skinFile } from '../support/fixtures.ts';
import { LaunchServerRequester } from '../support/launchserver.ts';
import { OWNER, uniqueName, type TestService } from '../support/service.ts';

const skipReason = browserMissing();
const GRAVIT_TOKEN = 'launchserver-shared-secret-0123';

type Tree = { [key: string]: string | Tree };
const englishValues = (tree: Tree): string[] =>
  Object.values(tree).flatMap((value) => (typeof value === 'string' ? [value] : englishValues(value)));
/** The console's English messages, without their placeholders: none of them may show in another language. */
const ENGLISH = englishValues(JSON.parse(readFileSync(new URL('../../locales/en/admin.json', import.meta.url), 'utf8')) as Tree)
  .flatMap((text) => text.split(/\{\{[^}]+\}\}|<\/?\w+>/))
  .map((part) => part.trim())
  .filter((part) => /[a-z]{3,}/.test(part) && part.includes(' '));

/**
 * Latin words the other languages keep as they are: product and setting names, units and what the test seeds in the
 * data (the hardware's reported names); the language picker names English in English.
 */
const KEPT = new Set([
  'UUID',
  'HD',
  'PNG',
  'Discord',
  'OpenID',
  // authlib-injector, named as itself, and the example host of the blocked servers' field.
  'authlib',
  'injector',
  'mc',
  'example',
  'com',
  'Yggdrasil',
  'Connect',
  'GravitLauncher',
  'LaunchServer',
  'REGISTRATION',
  'GiB',
  'GHz',
  'KB',
  'MB',
  'ID',
  'English',
  'system',
  'NVIDIA',
  'GeForce',
  'RTX',
]);

describeEachDatabase('admin console in Russian and Chinese', (kind) => {
  let service: TestService;
  let browser: Browser;
  let origin: string;
  let ownerToken: string;
  let close: (() => Promise<void>) | undefined;
  /** Data values the page shows as they are: names, mails, identifiers. */
  const values: string[] = [SITE_NAME, OWNER.username, OWNER.mail, 'launchserver'];
  let playerId = 0;

  before(async () => {
    if (skipReason) return;
    ({ service, browser, origin, close } = await servePagesToBrowser(kind, GRAVIT_TOKEN));
    ownerToken = await service.ownerToken();
    // Something in every section: a player with a skin, a cape, a temporary role and hardware, and an invitation.
    const player = await service.registerPlayer();
    values.push(player.username, player.mail);
    playerId = (await service.db.selectFrom('users').select('id').where('username', '=', player.username).executeTakeFirstOrThrow()).id;
    assert.equal((await service.upload('/api/home/skins', player.token, { name: 'Обычный' }, skinFile('classic'))).status, 200);
    const cape = await service.upload(
      '/api/admin/user/cape/upload',
      ownerToken,
      { name: 'Клетка', owners: String(playerId) },
      capeFile('cape'),
    );
    assert.equal(cape.status, 200);
    const grant = await service.call('POST', `/api/admin/user/role/${playerId}`, {
      token: ownerToken,
      body: { role_level: 1, expired_at: Math.floor(Date.now() / 1000) + 86_400 },
    });
    assert.ok(grant.status < 300, JSON.stringify(grant.body));
    const invite = await service.call('POST', '/api/admin/invites', { token: ownerToken, body: { note: 'для друга', days: 7 } });
    assert.ok(invite.status < 300, JSON.stringify(invite.body));
    const launchServer = new LaunchServerRequester(service, GRAVIT_TOKEN);
    const info = { ...HARDWARE_INFO_EXAMPLE, hwDiskId: `DISK-${uniqueName()}`, baseboardSerialNumber: `BOARD-${uniqueName()}` };
    values.push(info.hwDiskId, info.baseboardSerialNumber);
    const created = await launchServer.post('hardware/create', { info, publicKey: randomBytes(91).toString('base64url') });
    assert.ok(created.ok);
    values.push(String(created.result));
    const session = await launchServer.post('authorize', { login: player.username, password: player.password });
    assert.ok(session.ok);
    assert.ok((await launchServer.post('hardware/connect', { hardware: created.result, userSession: session.result })).ok);
  });
  after(() => close?.());

  /** The page's visible text without the data values, UUIDs, addresses and numbers. */
  const visibleWords = async (page: Page) => {
    let text = (await page.locator('body').innerText())
      .replace(/[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}/gi, ' ')
      .replace(/https?:\/\/\S+/g, ' ')
      .replace(/\S+@\S+/g, ' ');
    for (const value of values) text = text.split(value).join(' ');
    return text;
  };

  const assertNoEnglish = async (page: Page, what: string) => {
    const text = await visibleWords(page);
    const sentences = ENGLISH.filter((english) => text.includes(english));
    assert.deepEqual(sentences, [], `${what}: English messages of the console`);
    const words = [...new Set(text.match(/[A-Za-z]{2,}/g) ?? [])].filter((word) => !KEPT.has(word));
    assert.deepEqual(words, [], `${what}: Latin words in the visible text:\n${text}`);
  };

  const assertAccessible = async (page: Page, what: string) => {
    assert.deepEqual(await accessibilityProblems(page), [], `${what}, light`);
    await page.emulateMedia({ colorScheme: 'dark' });
    assert.deepEqual(await accessibilityProblems(page), [], `${what}, dark`);
    await page.emulateMedia({ colorScheme: 'light' });
  };

  for (const [language, locale, title] of [
    ['ru', 'ru-RU', 'Администрирование'],
    ['zh-CN', 'zh-CN', '管理后台'],
  ] as const) {
    it(
      `${language}: every section and the user editor show no English and pass the accessibility check`,
      { skip: skipReason ?? false },
      async () => {
        // The owner's account speaks the language (the pages follow it), and so does the browser.
        const patched = await service.call('PATCH', '/api/home', { token: ownerToken, body: { language } });
        assert.ok(patched.status < 300, JSON.stringify(patched.body));
        const page = await openWatchedPage(browser, origin, { context: { locale } });
        await logInWithToken(page, origin, await service.ownerToken());

        for (const { id: section } of SECTIONS) {
          await page.goto(`${origin}/admin?tab=${section}`);
          await page.getByRole('heading', { name: title, level: 1 }).waitFor();
          await page.locator('main section').first().waitFor();
          await page.waitForLoadState('networkidle');
          assert.equal(await page.locator('html').getAttribute('lang'), language);
          await assertNoEnglish(page, `${language} ${section}`);
          await assertAccessible(page, `${language} ${section}`);
          await screenshot(page, `${kind}-admin-${language}-${section}`);
        }

        // The audit log names the role grant in the language, with its date in the language's form.
        await page.goto(`${origin}/admin?tab=audit`);
        const grantSentence = language === 'ru' ? /выдал роль «модератор» до \d+ \S+ \d{4}/ : /授予版主角色，至 \d{4}年\d+月\d+日/;
        await page.locator('main table').getByText(grantSentence).waitFor();

        // The player's editor in its dialog, with the ban question open.
        await page.goto(`${origin}/admin?tab=users&user=${playerId}`);
        const dialog = page.getByRole('dialog');
        await dialog.getByRole('heading', { level: 3 }).first().waitFor();
        await page.waitForLoadState('networkidle');
        const standing = dialog.getByRole('group', { name: language === 'ru' ? 'Бан' : '封禁' });
        await standing.getByRole('button', { name: language === 'ru' ? 'Забанить' : '封禁', exact: true }).click();
        await standing.getByRole('alertdialog').waitFor();
        await assertNoEnglish(page, `${language} user editor`);
        await assertAccessible(page, `${language} user editor`);
        await screenshot(page, `${kind}-admin-${language}-user-editor`);
        await page.context().close();
        assert.deepEqual(problemsOf(page), [], 'the pages had errors or reached another origin');
      },
    );
  }
});
