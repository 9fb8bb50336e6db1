// A real browser for the page tests: Debian's Chromium driven by playwright-core (nothing downloaded).
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import type { Clock } from '../../src/clock.ts';
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
 * open its pages.
 */
export async function servePagesToBrowser(kind: DatabaseKind, gravitToken: string, clock?: Clock) {
  const port = await freePort();
  const service: TestService = await startService(kind, { settings: { owner: OWNER, port, gravitToken, serverName: SITE_NAME }, clock });
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
