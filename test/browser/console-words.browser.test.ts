// The console as a new owner met it (issue 38, items 2 and 13), in a real browser (Debian's Chromium), in English,
// Russian and Chinese: the audit log and the dashboard tell every action in words (launcher apps, their logins,
// passkeys, an import, a profile limit), never a raw key, and the "What happened" filter offers every action; on a
// service without GRAVIT_TOKEN the hardware tab waits for hardware; an empty list has no pager; the user editor offers
// to remove passkeys only from a player who has some. The pages do not depend on the database: one suite, on SQLite.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { recordAudit } from '../../src/audit/audit.ts';
import { AUDIT_ACTIONS } from '../../src/shared/audit-actions.ts';
import { accessibilityProblems } from '../support/accessibility.ts';
import { browserMissing, logInWithToken, openWatchedPage, screenshot, servePagesToBrowser } from '../support/browser.ts';
import type { TestService } from '../support/service.ts';

const skipReason = browserMissing();
const skip = skipReason ?? false;
/** An action's dotted name, as the console showed nine of them. */
const RAW_KEY =
  /\b(?:oauth|passkey|import|user|auth|profile|role|skin|cape|mail|invite|registration|hardware|discord|app_password)\.[a-z_.]+\b/;
const catalogue = (language: string) =>
  JSON.parse(readFileSync(new URL(`../../locales/${language}/admin.json`, import.meta.url), 'utf8')) as Record<
    string,
    Record<string, string>
  >;
/** The console's words the test looks for, from its catalogue in `language`. */
const wordsOf = (language: string) => {
  const words = catalogue(language);
  return {
    filter: words.audit!.what!,
    passkeyAdded: words.actions!.passkey_add!,
    nothing: words.sentence!.update!.replace('{{changes}}', words.change!.nothing!),
    operator: words.actor!.cli!,
  };
};

describe('the console in words, its hardware tab, pager and passkeys [sqlite]', () => {
  let service: TestService;
  let browser: Browser;
  let origin: string;
  let close: (() => Promise<void>) | undefined;
  let ownerToken: string;
  let playerId = 0;
  before(async () => {
    if (skipReason) return;
    // No GRAVIT_TOKEN: nothing reports hardware through the launcher API.
    ({ service, browser, origin, close } = await servePagesToBrowser('sqlite', '', undefined, { gravitToken: null }));
    ownerToken = await service.ownerToken();
    const player = await service.registerPlayer();
    playerId = (await service.db.selectFrom('users').select('id').where('username', '=', player.username).executeTakeFirstOrThrow()).id;
    // As the owner did: register a launcher app, change it, delete it, and set a player's own profile limit.
    const made = await service.call('POST', '/api/admin/oauth/clients', {
      token: ownerToken,
      body: { name: 'Community website', redirect_uris: ['https://forum.example.org/oauth/callback'], public: false, device: false },
    });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const client = made.body.data.id as string;
    assert.equal(
      (await service.call('PATCH', `/api/admin/oauth/clients/${client}`, { token: ownerToken, body: { name: 'Forum' } })).status,
      200,
    );
    assert.equal((await service.call('DELETE', `/api/admin/oauth/clients/${client}`, { token: ownerToken })).status, 200);
    assert.equal(
      (await service.call('PATCH', `/api/admin/user/${playerId}`, { token: ownerToken, body: { max_profiles: 3 } })).status,
      200,
    );
    // What a launcher's login, a passkey and an import leave, written as their services write it (a browser's
    // authenticator, a device grant and an import's source database are other suites' part).
    const now = Date.now();
    const actor = { id: playerId, name: player.username };
    await recordAudit(service.db, now, { actor, action: 'oauth.grant', target: playerId, details: { client, scopes: ['openid'] } });
    await recordAudit(service.db, now, { actor, action: 'oauth.revoke', target: playerId, details: { client } });
    await recordAudit(service.db, now, { actor, action: 'passkey.add', target: playerId, details: { id: 1, name: 'Laptop' } });
    await recordAudit(service.db, now, {
      actor,
      action: 'passkey.counter_regressed',
      target: playerId,
      details: { id: 1, name: 'Laptop', stored: 7, received: 3 },
    });
    await recordAudit(service.db, now, { actor, action: 'passkey.remove', target: playerId, details: { id: 1, name: 'Laptop' } });
    await recordAudit(service.db, now, {
      actor: { id: null, name: 'cli' },
      action: 'import.run',
      details: {
        source: 'blessing-skin:mysql://root@127.0.0.1:3306/community',
        counts: { accounts: { imported: 2, already: 0, left_out: 1 }, skins: { imported: 3, already: 0, left_out: 0 } },
      },
    });
  });
  after(() => close?.());

  const ownerPage = async (language: string): Promise<Page> => {
    assert.equal((await service.call('PATCH', '/api/home', { token: ownerToken, body: { language } })).status, 200);
    const page = await openWatchedPage(browser, origin);
    await logInWithToken(page, origin, await service.ownerToken());
    return page;
  };

  for (const language of ['en', 'ru', 'zh-CN'] as const) {
    it(`${language}: the audit log and the dashboard say every action in words, and the filter offers each`, { skip }, async () => {
      const words = wordsOf(language);
      const page = await ownerPage(language);
      await page.goto(`${origin}/admin?tab=audit`);
      const table = page.locator('main table');
      await table.locator('tbody tr').nth(9).waitFor();
      const rows = await table.locator('tbody tr').allInnerTexts();
      assert.deepEqual(
        rows.filter((row) => RAW_KEY.test(row)),
        [],
        `${language}: rows with a raw action key`,
      );
      assert.deepEqual(
        rows.filter((row) => row.includes(words.nothing)),
        [],
        `${language}: a change described as nothing`,
      );
      assert.ok(
        rows.some((row) => row.includes(words.operator)),
        `${language}: the import's actor in words:\n${rows.join('\n')}`,
      );
      if (language === 'en') await screenshot(page, 'console-words-audit-all-en');
      // The filter: an option for every action the service records, each in words.
      const filter = page.getByLabel(words.filter);
      const options = await filter
        .locator('option')
        .evaluateAll((all) => all.map((option) => ({ value: (option as HTMLOptionElement).value, text: option.textContent ?? '' })));
      assert.deepEqual(
        options
          .map((option) => option.value)
          .filter(Boolean)
          .sort(),
        [...AUDIT_ACTIONS].sort(),
      );
      assert.deepEqual(
        options.filter((option) => option.value && (option.text === option.value || RAW_KEY.test(option.text))),
        [],
      );
      await filter.selectOption({ label: words.passkeyAdded });
      await page.locator('main form button[type=submit]').click();
      await page.waitForFunction(() => document.querySelectorAll('main table tbody tr').length === 1);
      if (language === 'en') {
        assert.deepEqual(await accessibilityProblems(page), []);
        await screenshot(page, 'console-words-audit-en');
      }

      await page.goto(`${origin}/admin`);
      const activity = page.locator('main ol.activity');
      await activity.locator('li').first().waitFor();
      const entries = await activity.locator('li').allInnerTexts();
      assert.deepEqual(
        entries.filter((entry) => RAW_KEY.test(entry)),
        [],
        `${language}: the dashboard's latest activity`,
      );
      await page.context().close();
    });
  }

  it(
    'shows the hardware tab only with hardware to show, no pager for an empty list, and passkeys to remove only when some',
    { skip },
    async () => {
      const page = await ownerPage('en');
      await page.goto(`${origin}/admin?tab=hardware`);
      const tabs = page.getByRole('navigation', { name: 'Sections' });
      await tabs.getByRole('link', { name: 'Dashboard' }).waitFor();
      assert.equal(await tabs.getByRole('link', { name: 'Hardware' }).count(), 0, 'no GRAVIT_TOKEN and no hardware: no tab');
      await page.getByRole('heading', { name: 'Latest activity' }).waitFor();

      // An empty list says so, without "Previous none Next".
      await page.goto(`${origin}/admin?tab=capes`);
      await page.getByText('No capes yet.').waitFor();
      await page.waitForLoadState('networkidle');
      assert.equal(await page.getByRole('button', { name: 'Previous' }).count(), 0);
      assert.equal(await page.getByRole('button', { name: 'Next' }).count(), 0);

      // A player with no passkey: the editor says so and offers nothing to remove.
      await page.goto(`${origin}/admin?tab=users&user=${playerId}`);
      const passkeys = page.getByRole('group', { name: 'Passkeys' });
      await passkeys.getByText('No passkeys.').waitFor();
      assert.equal(await passkeys.getByRole('button', { name: 'Remove all passkeys' }).count(), 0);
      assert.equal(await page.getByRole('heading', { name: 'Hardware' }).count(), 0, 'nor hardware in the editor');

      // A LaunchServer's sql core records hardware without GRAVIT_TOKEN: then the tab is there, with its heading.
      await service.db.insertInto('hwids').values({ hwdiskid: 'DISK-SQL-CORE', battery: 0, banned: 0 }).execute();
      await page.goto(`${origin}/admin?tab=hardware`);
      await page.getByRole('heading', { name: 'Hardware', level: 2 }).waitFor();
      await tabs.getByRole('link', { name: 'Hardware' }).waitFor();
      await screenshot(page, 'console-words-hardware');
      await page.context().close();
    },
  );
});
