// A real browser for the page tests: Debian's Chromium driven by playwright-core (nothing downloaded).
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { after } from 'node:test';
import { chromium, type Browser, type BrowserContextOptions, type Locator, type Page } from 'playwright-core';
import type { Clock } from '../../src/clock.ts';
import type { Settings } from '../../src/settings.ts';
import type { DatabaseKind } from './databases.ts';
import { freePort } from './net.ts';
import { OWNER, startService, type TestService } from './service.ts';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Why the browser suites cannot run here, or null. Under REQUIRE_SERVICES=1 a missing browser is a failure. */
export function browserMissing(): string | null {
  if (existsSync(CHROMIUM_PATH)) return null;
  if (process.env.REQUIRE_SERVICES === '1') throw new Error(`REQUIRE_SERVICES=1 but there is no Chromium at ${CHROMIUM_PATH}`);
  return `no Chromium at ${CHROMIUM_PATH} (apt-get install chromium, or set CHROMIUM_PATH)`;
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
    ],
  });
}

/** The SERVER_NAME the pages are served with: the header of every page and the front page show it. */
export const SITE_NAME = 'Blockville Skins';

/**
 * The service listening on a free port of 127.0.0.1 (its PUBLIC_URL stays the tests' other host, as a home server
 * reached by its address), with the OWNER, a GRAVIT_TOKEN and SITE_NAME (and a `clock`, if given), and a browser to
 * open its pages. `settings` adds to (or overrides) those settings: the profile limit, say.
 */
export async function servePagesToBrowser(kind: DatabaseKind, gravitToken: string, clock?: Clock, settings: Partial<Settings> = {}) {
  const port = await freePort();
  const service: TestService = await startService(kind, {
    settings: { owner: OWNER, port, gravitToken, serverName: SITE_NAME, ...settings },
    clock,
  });
  await service.app.listen({ port, host: '127.0.0.1' });
  const browser = await launchBrowser();
  return {
    service,
    browser,
    origin: `http://127.0.0.1:${port}`,
    close: async () => {
      await browser.close();
      await service.close();
    },
  };
}

/**
 * What a cold load of /login (and of the front page's text) may transfer, compressed: the pages' budget
 * (docs/performance.md, Web pages).
 */
export const LOGIN_PAGE_BUDGET = 42_500;

export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1280, height: 900 };

const SCREENSHOTS = join(import.meta.dirname, '../../test-output/screenshots');

/**
 * Saves a screenshot of the whole page, or of one `part` of it, under test-output/screenshots (to look at; a few are
 * copied into docs/images).
 */
export async function screenshot(page: Page, name: string, part?: Locator): Promise<Buffer> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const path = join(SCREENSHOTS, `${name}.png`);
  return part ? part.screenshot({ path }) : page.screenshot({ path, fullPage: true });
}

/**
 * Fails the test on anything a user would see go wrong: an uncaught page error, a console error, or a request to
 * another origin (the pages must work behind a firewall). The browser logs each 4xx answer as an error: those are the
 * API refusing, which the page shows.
 */
export function watchPage(page: Page, origin: string): string[] {
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' && !/status of 4[0-9][0-9]/.test(message.text())) problems.push(`console: ${message.text()}`);
  });
  page.on('request', (request) => {
    const url = request.url();
    if (!url.startsWith(origin) && !url.startsWith('data:') && !url.startsWith('blob:')) problems.push(`request to another origin: ${url}`);
  });
  return problems;
}

const problemsOfPage = new WeakMap<Page, string[]>();

/**
 * A page in a new browser context (`viewport`, DESKTOP unless given, and the other `context` options), watched with
 * watchPage: any page error, console error, request to another origin or browser dialog (dismissed, so that the page
 * goes on) is a problem, and an `after` hook fails the suite on any problem that `tolerate` does not accept.
 */
export async function openWatchedPage(
  browser: Browser,
  origin: string,
  options: { viewport?: { width: number; height: number }; context?: BrowserContextOptions; tolerate?: (problem: string) => boolean } = {},
): Promise<Page> {
  const { viewport = DESKTOP, context: contextOptions = {}, tolerate = () => false } = options;
  const context = await browser.newContext({ ...contextOptions, viewport });
  const page = await context.newPage();
  const problems = watchPage(page, origin);
  problemsOfPage.set(page, problems);
  page.on('dialog', (dialog) => {
    problems.push(`a browser dialog opened: ${dialog.message()}`);
    void dialog.dismiss().catch(() => {});
  });
  after(() =>
    assert.deepEqual(
      problems.filter((problem) => !tolerate(problem)),
      [],
      'the pages had errors or reached another origin',
    ),
  );
  return page;
}

/** The problems seen so far on a page from openWatchedPage (to assert on them within a test, too). */
export function problemsOf(page: Page): readonly string[] {
  const problems = problemsOfPage.get(page);
  if (!problems) throw new Error('problemsOf: the page was not opened with openWatchedPage');
  return problems;
}

/**
 * Logs in through the login page (opened first unless `onLoginPage`), with the button named exactly "Log in", and
 * waits for the profile unless `waitForHome` is false (a second step follows).
 */
export async function logIn(
  page: Page,
  origin: string,
  username: string,
  password: string,
  { waitForHome = true, onLoginPage = false }: { waitForHome?: boolean; onLoginPage?: boolean } = {},
): Promise<void> {
  if (!onLoginPage) await page.goto(`${origin}/login`);
  await page.getByLabel('Username or mail').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in', exact: true }).click();
  if (waitForHome) await page.waitForURL(`${origin}/home`);
}

/** Logged in without the login form: `token` put where the pages keep it (from the login page, on this origin). */
export async function logInWithToken(page: Page, origin: string, token: string): Promise<void> {
  await page.goto(`${origin}/login`);
  await page.evaluate((value) => localStorage.setItem('skinservice.token', value), token);
}
