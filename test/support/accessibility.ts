// The accessibility check of the browser tests: axe-core run inside the page as it stands, failing on serious or
// critical findings (WCAG 2.x A and AA rules, colour contrast included).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface Finding {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

/** The serious and critical axe-core findings on the page now, each with the elements it names (empty when clean). */
export async function accessibilityProblems(page: Page): Promise<Finding[]> {
  // evaluate, not a script tag: the pages' Content-Security-Policy allows only their own scripts.
  await page.evaluate(axeSource);
  return page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run: (context: Document, options: object) => Promise<{ violations: any[] }> } }).axe;
    const result = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
    return result.violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation) => ({
        id: violation.id,
        impact: violation.impact,
        help: violation.help,
        targets: violation.nodes.map((node: { target: string[] }) => node.target.join(' ')),
      }));
  });
}

/** Fails unless the page as it stands passes the check in the light theme and in the dark one (left light). */
export async function assertAccessibleInBothThemes(page: Page, what: string): Promise<void> {
  assert.deepEqual(await accessibilityProblems(page), [], `${what}, light`);
  await page.emulateMedia({ colorScheme: 'dark' });
  assert.deepEqual(await accessibilityProblems(page), [], `${what}, dark`);
  await page.emulateMedia({ colorScheme: 'light' });
}
