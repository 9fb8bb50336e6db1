// The pages in Russian and Chinese (issue 18, contract section 14): a browser set to Russian gets the main journey in
// Russian (front page, registration with its mail, confirmation, finishing, profile, uploading a skin, logging out and
// in) with no English left on any page; the language picker switches to Chinese and back, remembered after a reload
// (in this browser for a visitor, on the account when logged in: GET /api/home `Language`).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { accessibilityProblems } from '../support/accessibility.ts';
import { browserMissing, openWatchedPage, servePagesToBrowser, SITE_NAME } from '../support/browser.ts';
import { describeEachDatabase } from '../support/databases.ts';
import { FIXTURES } from '../support/fixtures.ts';
import { PUBLIC_URL, uniqueName, type TestService } from '../support/service.ts';
import { mailTo } from '../support/smtp.ts';

const skipReason = browserMissing();
const GRAVIT_TOKEN = 'launchserver-shared-secret-0123';

/** Latin words that stay as they are in every language: names of products, formats and keys. */
const KEPT = [
  SITE_NAME,
  'Prism Launcher',
  'Google Authenticator',
  'authlib-injector',
  'GravitLauncher',
  'CustomSkinLoader',
  'CustomSkinAPI',
  'Minecraft',
  'Discord',
  'HMCL',
  // Yggdrasil Connect, the launcher login's name (as HMCL and UUID, not translated), and the game login's.
  'Yggdrasil Connect',
  'Yggdrasil',
  'UUID',
  'PNG',
  'Ctrl+C',
  'Aegis',
  'FreeOTP',
  '3D',
  // The picker offers each language in its own name.
  'English',
];

type Tree = { [key: string]: string | Tree };
const englishTexts = (tree: Tree): string[] =>
  Object.values(tree).flatMap((value) => (typeof value === 'string' ? [value] : englishTexts(value)));
/** The English catalogue's messages of more than one word, without their placeholders and markup. */
const ENGLISH = ['web.json', 'home.json']
  .flatMap((file) => englishTexts(JSON.parse(readFileSync(new URL(`../../locales/en/${file}`, import.meta.url), 'utf8')) as Tree))
  .flatMap((text) => text.split(/\{\{[^}]+\}\}|<\/?\w+>/))
  .map((part) => part.trim())
  .filter((part) => /^[A-Za-z]/.test(part) && part.includes(' ') && part.length > 8);

/**
 * What the page shows and says (its text, and the labels, alternative texts and titles read out), with the values
 * the player typed or that are names (site, player, mail, file, addresses, codes) taken out.
 */
async function pageWords(page: Page, own: string[]): Promise<string> {
  const text = await page.evaluate(() => {
    const parts = [document.title, document.body.innerText];
    for (const element of document.querySelectorAll('[aria-label], [alt], [title], [placeholder]'))
      for (const attribute of ['aria-label', 'alt', 'title', 'placeholder']) parts.push(element.getAttribute(attribute) ?? '');
    return parts.join('\n');
  });
  let rest = text
    .replace(/https?:\/\/\S+/g, ' ')
    .replace(/[\w.-]+@[\w.-]+/g, ' ')
    .replace(/\b[\w-]+\.png\b/g, ' ');
  // The game login's host (PUBLIC_URL's) is an address too.
  for (const kept of [...own, new URL(PUBLIC_URL).host, ...KEPT].sort((a, b) => b.length - a.length)) rest = rest.split(kept).join(' ');
  return rest;
}

/** Fails with the English words left on the page: Latin words, and any of the English catalogue's sentences. */
async function assertNoEnglish(page: Page, where: string, own: string[]) {
  const words = await pageWords(page, own);
  const latin = [...new Set(words.match(/[A-Za-z]{2,}/g) ?? [])];
  assert.deepEqual(latin, [], `${where}: English (Latin) words left in the page`);
  const sentences = ENGLISH.filter((sentence) => words.includes(sentence));
  assert.deepEqual(sentences, [], `${where}: English sentences left in the page`);
}

describeEachDatabase('the pages in Russian and Chinese', (kind) => {
  let service: TestService;
  let browser: Browser;
  let origin: string;
  let close: (() => Promise<void>) | undefined;
  before(async () => {
    if (skipReason) return;
    ({ service, browser, origin, close } = await servePagesToBrowser(kind, GRAVIT_TOKEN));
  });
  after(() => close?.());

  /** A browser whose languages are Russian (navigator.languages and Accept-Language). */
  const openRussianPage = (): Promise<Page> => openWatchedPage(browser, origin, { context: { reducedMotion: 'reduce', locale: 'ru-RU' } });

  const languageOfAccount = async (page: Page) => {
    const token = await page.evaluate(() => localStorage.getItem('skinservice.token'));
    return (await service.call('GET', '/api/home', { token: token! })).body.data.Language as string;
  };

  it(
    'takes a player through registration, the profile and a skin in Russian with no English left',
    { skip: skipReason ?? false },
    async () => {
      const page = await openRussianPage();
      const username = uniqueName('ru');
      const mail = `${username.toLowerCase()}@example.org`;
      const password = 'правильный пароль 42';
      const own = [username, mail, password];

      await page.goto(`${origin}/`);
      await page.getByRole('link', { name: 'Создать аккаунт' }).waitFor();
      assert.equal(await page.evaluate(() => document.documentElement.lang), 'ru');
      await assertNoEnglish(page, '/', own);

      await page.getByRole('link', { name: 'Создать аккаунт' }).click();
      await page.getByRole('heading', { name: 'Регистрация' }).waitFor();
      await page.waitForFunction((title) => document.title === title, `Регистрация · ${SITE_NAME}`);
      await assertNoEnglish(page, '/register', own);
      await page.getByLabel('Почта').fill(mail);
      await page.getByLabel('Пароль', { exact: true }).fill(password);
      // Asked once, with a switch that shows it.
      await page.getByLabel('Показать пароль').check();
      assert.equal(await page.getByLabel('Пароль', { exact: true }).getAttribute('type'), 'text');
      await assertNoEnglish(page, '/register, the password shown', own);
      await page.getByRole('button', { name: 'Зарегистрироваться' }).click();
      await page.waitForURL(`${origin}/register/confirm`);
      await page.getByText(`Мы отправили код на ${mail}`).waitFor();
      await assertNoEnglish(page, '/register/confirm', own);

      // A wrong password before confirming: the page's own Russian words for the API's refusal (picked by its key,
      // X-Error-Key).
      await page.goto(`${origin}/login`);
      await page.getByLabel('Ник или почта').fill(mail);
      await page.getByLabel('Пароль').fill('не тот пароль');
      await page.getByRole('button', { name: 'Войти', exact: true }).click();
      await page
        .getByRole('alert')
        .filter({ hasText: 'Неверный ник, почта или пароль: проверьте их и попробуйте снова или сбросьте пароль.' })
        .waitFor();
      await assertNoEnglish(page, '/login, wrong password', own);
      assert.deepEqual(await accessibilityProblems(page), [], 'the login page in Russian');

      // The mail is in the language of the page that registered (the server's part of issue 18).
      const sent = await service.mailbox.waitFor(mailTo(mail));
      assert.match(`${sent.subject}\n${sent.text}`, /[а-яё]{4,}/i, 'the registration mail is in Russian');
      const link = /https?:\/\/\S+\/register\/confirm\?code=[^\s"<>]+/.exec(sent.text ?? '')?.[0];
      assert.ok(link, 'the mail has the confirmation link');
      const { pathname, search } = new URL(link);
      // Opened as in another browser, which did not register: the page asks for the account's password, in Russian,
      // then confirms and logs in (registration-flow.browser.test.ts follows the browser that registered).
      await page.evaluate(() => localStorage.removeItem('skinservice.registration'));
      await page.goto(`${origin}${pathname}${search}`);
      await page.getByText('Аккаунт регистрировали не в этом браузере').waitFor();
      await assertNoEnglish(page, '/register/confirm in another browser', own);
      assert.deepEqual(await accessibilityProblems(page), [], 'the confirm page asking for the password, in Russian');
      await page.getByLabel('Пароль', { exact: true }).fill(password);
      await page.getByRole('button', { name: 'Подтвердить' }).click();
      await page.waitForURL(`${origin}/register/finish`);
      await page.getByRole('heading', { name: 'Завершение регистрации' }).waitFor();
      await assertNoEnglish(page, '/register/finish', own);
      await page.getByLabel('Ваш ник в игре').fill(username);
      await page.getByRole('button', { name: 'Готово' }).click();
      await page.waitForURL(`${origin}/home`);
      await page.getByRole('heading', { name: 'Ваши скины' }).waitFor();
      await assertNoEnglish(page, '/home', own);
      assert.equal(await languageOfAccount(page), 'ru', 'the account took the language of the registering page');

      await page.getByLabel('Файл скина').setInputFiles(`${FIXTURES}/skins/classic.png`);
      await page.getByText('classic.png загружен и уже надет.').waitFor();
      await page.locator('li.selected[data-skin-uuid]').waitFor();
      await assertNoEnglish(page, '/home with a skin', [...own, 'classic']);
      assert.deepEqual(await accessibilityProblems(page), [], 'the profile in Russian');

      // A refusal in Russian lands on its field (X-Error-Params names it), in the page's words for it.
      const passwordCard = page.locator('section', { has: page.getByRole('heading', { name: 'Сменить пароль' }) });
      await passwordCard.getByLabel('Текущий пароль').fill('не тот пароль');
      await passwordCard.getByLabel('Новый пароль').fill('совсем новый пароль');
      await passwordCard.getByRole('button', { name: 'Сменить пароль' }).click();
      await passwordCard.locator('input[name="current_password"][aria-invalid="true"]').waitFor();
      assert.equal(await passwordCard.locator('.field-error').innerText(), 'Текущий пароль неверен: введите его ещё раз.');
      await passwordCard.getByLabel('Текущий пароль').fill(password);
      await passwordCard.getByLabel('Новый пароль').fill('коротко');
      await passwordCard.getByRole('button', { name: 'Сменить пароль' }).click();
      await passwordCard.locator('input[name="password"][aria-invalid="true"]').waitFor();
      // Eight takes the "many" plural form in Russian (символов), chosen by i18next.
      assert.equal(await passwordCard.locator('.field-error').innerText(), 'Пароль слишком короткий: нужно хотя бы 8 символов.');

      // The picker: Chinese, stored on the account and kept after a reload; then Russian again.
      await page.getByLabel('Язык').selectOption('zh-CN');
      await page.getByRole('heading', { name: '我的皮肤' }).waitFor();
      assert.equal(await page.evaluate(() => document.documentElement.lang), 'zh-CN');
      await assertNoEnglish(page, '/home in Chinese', [...own, 'classic']);
      await waitForAccountLanguage(page, 'zh-CN');
      await page.reload();
      await page.getByRole('heading', { name: '我的皮肤' }).waitFor();
      assert.equal(await page.getByLabel('语言').inputValue(), 'zh-CN');
      await page.getByLabel('语言').selectOption('ru');
      await page.getByRole('heading', { name: 'Ваши скины' }).waitFor();
      await waitForAccountLanguage(page, 'ru');

      await page.getByRole('button', { name: 'Выйти', exact: true }).click();
      await page.waitForURL(`${origin}/login`);
      await page.getByText('Вы вышли из аккаунта.').waitFor();
      await assertNoEnglish(page, '/login after logging out', own);
      await page.getByLabel('Ник или почта').fill(username);
      await page.getByLabel('Пароль').fill(password);
      await page.getByRole('button', { name: 'Войти', exact: true }).click();
      await page.waitForURL(`${origin}/home`);
      await page.getByRole('heading', { name: 'Ваши скины' }).waitFor();
      await assertNoEnglish(page, '/home after logging in again', [...own, 'classic']);
    },
  );

  /** The account's stored language, once the page's PATCH has landed. */
  const waitForAccountLanguage = async (page: Page, expected: string) => {
    for (let attempt = 0; attempt < 50; attempt++) {
      if ((await languageOfAccount(page)) === expected) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.equal(await languageOfAccount(page), expected, 'the language chosen in the picker is stored on the account');
  };

  it(
    'records what /login transfers in Russian (the Russian catalogue comes as a chunk of its own)',
    { skip: skipReason ?? false },
    async (t) => {
      const page = await openRussianPage();
      const sizes: Promise<number>[] = [];
      const scripts: string[] = [];
      page.on('requestfinished', (request) => {
        sizes.push(request.sizes().then((size) => size.responseHeadersSize + size.responseBodySize));
        if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
      });
      await page.goto(`${origin}/login`);
      await page.getByRole('heading', { name: 'Вход' }).waitFor();
      await page.waitForLoadState('networkidle');
      const bytes = (await Promise.all(sizes)).reduce((sum, size) => sum + size, 0);
      t.diagnostic(`/login in Russian, cold cache: ${bytes} bytes transferred in ${sizes.length} requests`);
      assert.ok(
        scripts.some((path) => /\/assets\/web-/.test(path)),
        'the Russian catalogue is a chunk of its own',
      );
      await page.context().close();
    },
  );

  it('says the default site name (SERVER_NAME unset) in the page’s language', { skip: skipReason ?? false }, async () => {
    const page = await openRussianPage();
    // The service's real metadata with the name it announces when SERVER_NAME is not set.
    await page.route('**/api/yggdrasil/', async (route) => {
      const response = await route.fetch();
      const root = (await response.json()) as { meta: { serverName: string } };
      await route.fulfill({ response, json: { ...root, meta: { ...root.meta, serverName: 'Skin service' } } });
    });
    await page.goto(`${origin}/login`);
    await page.getByRole('link', { name: 'Сервис скинов' }).waitFor();
    await page.waitForFunction((title) => document.title === title, 'Вход · Сервис скинов');
    await assertNoEnglish(page, '/login with the default site name', []);
    await page.unrouteAll({ behavior: 'wait' });
    await page.context().close();
  });

  it(
    'remembers a visitor’s choice in this browser, and an account’s choice over the browser’s',
    { skip: skipReason ?? false },
    async () => {
      const page = await openRussianPage();
      await page.goto(`${origin}/reset`);
      await page.getByRole('heading', { name: 'Сброс пароля' }).waitFor();
      await assertNoEnglish(page, '/reset', []);
      await page.getByLabel('Язык').selectOption('zh-CN');
      await page.getByRole('heading', { name: '重置密码' }).waitFor();
      await page.reload();
      await page.getByRole('heading', { name: '重置密码' }).waitFor();
      assert.equal(await page.evaluate(() => document.documentElement.lang), 'zh-CN');
      await assertNoEnglish(page, '/reset in Chinese', []);
      await page.getByRole('link', { name: '返回登录' }).click();
      await page.getByRole('heading', { name: '登录' }).waitFor();
      await page.waitForFunction((title) => document.title === title, `登录 · ${SITE_NAME}`);
      await assertNoEnglish(page, '/login in Chinese', []);
      assert.deepEqual(await accessibilityProblems(page), [], 'the login page in Chinese');
      // The registration form (reached by the front page's link) and the front page in Chinese, then the login form again.
      await page.goto(`${origin}/`);
      await page.getByRole('link', { name: '创建账号' }).click();
      await page.getByRole('heading', { name: '创建账号' }).waitFor();
      await assertNoEnglish(page, '/register in Chinese', []);
      // The confirm page of another browser: the code, the address it came to and the account's password, in Chinese.
      await page.goto(`${origin}/register/confirm`);
      await page.getByText('收到邮件的邮箱').waitFor();
      await page.getByText('此账号不是在此浏览器中注册的').waitFor();
      await assertNoEnglish(page, '/register/confirm in Chinese', []);
      await page.goto(`${origin}/mail/confirm`);
      await page.getByRole('heading', { name: '验证邮箱' }).waitFor();
      await assertNoEnglish(page, '/mail/confirm in Chinese', []);
      await page.goto(`${origin}/`);
      await page.getByRole('link', { name: '登录' }).first().waitFor();
      await assertNoEnglish(page, '/ in Chinese', []);
      await page.goto(`${origin}/login`);
      await page.getByRole('heading', { name: '登录' }).waitFor();

      // An account whose stored language is English: logging in from this Chinese page turns the pages English.
      const player = await service.registerPlayer();
      await page.getByLabel('玩家名或邮箱').fill(player.username);
      await page.getByLabel('密码').fill(player.password);
      await page.getByRole('button', { name: '登录', exact: true }).click();
      await page.waitForURL(`${origin}/home`);
      await page.getByRole('heading', { name: 'Upload a skin' }).waitFor();
      assert.equal(await page.evaluate(() => document.documentElement.lang), 'en');
      assert.equal(await page.evaluate(() => localStorage.getItem('skinservice.language')), 'en');
    },
  );
});
