// The console's launcher apps (Yggdrasil Connect clients, contract section 18) in a real browser, on SQLite and
// PostgreSQL: the owner registers a confidential app, copies its id and secret shown once, and the token endpoint
// takes that secret (a wrong one is invalid_client); the app is listed; deleting it after a confirmation in the page
// removes it. Axe-clean in both themes.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { assertAccessibleInBothThemes } from '../support/accessibility.ts';
import { browserMissing, logInWithToken, openWatchedPage, screenshot, servePagesToBrowser } from '../support/browser.ts';
import { describeEachDatabase } from '../support/databases.ts';
import type { TestService } from '../support/service.ts';

const skipReason = browserMissing();
const GRAVIT_TOKEN = 'launchserver-shared-secret-0123';

describeEachDatabase('launcher apps in the console', (kind) => {
  let service: TestService;
  let browser: Browser;
  let origin: string;
  let close: (() => Promise<void>) | undefined;
  before(async () => {
    if (skipReason) return;
    ({ service, browser, origin, close } = await servePagesToBrowser(kind, GRAVIT_TOKEN));
  });
  after(() => close?.());

  /** The token endpoint's verdict on a client's credentials, with a refresh token that is no good either way. */
  const clientAuthentication = async (id: string, secret: string) =>
    (
      await service.call('POST', '/oauth/token', {
        body: new URLSearchParams({
          grant_type: 'refresh_token',
          refresh_token: 'nothing',
          client_id: id,
          client_secret: secret,
        }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      })
    ).body.error as string;

  it('registers an app with its secret shown once, lists it and deletes it', { skip: skipReason ?? false }, async () => {
    const page = await openWatchedPage(browser, origin);
    await logInWithToken(page, origin, await service.ownerToken());
    await page.goto(`${origin}/admin?tab=clients`);
    const section = page.getByRole('region', { name: 'Apps that log players in (Yggdrasil Connect)' });
    await section.getByText('No app is registered: launchers use the shared client.').waitFor();

    await section.getByLabel('Name players see').fill('Server website');
    await section.getByLabel('Redirect addresses, one per line').fill('https://play.example.org/oauth/callback\n');
    await section.getByRole('button', { name: 'Register', exact: true }).click();
    await section.getByRole('heading', { name: 'The secret of Server website' }).waitFor();
    const id = await section.getByRole('textbox', { name: 'Client id' }).inputValue();
    const secret = await section.getByRole('textbox', { name: 'Secret' }).inputValue();
    assert.match(id, /^[0-9a-f]{32}$/);
    assert.ok(secret.length >= 32);
    assert.equal(await clientAuthentication(id, secret), 'invalid_grant', 'the secret shown authenticates the app');
    assert.equal(await clientAuthentication(id, `${secret}x`), 'invalid_client');
    const item = section.getByRole('listitem', { name: 'Server website' });
    assert.match(await item.innerText(), /confidential, with a secret/);
    assert.match(await item.innerText(), /https:\/\/play\.example\.org\/oauth\/callback/);
    await assertAccessibleInBothThemes(page, 'a registered app with its secret');
    await screenshot(page, 'web-admin-clients', section);

    await section.getByRole('button', { name: 'Done, hide it' }).click();
    assert.equal(await section.getByRole('textbox', { name: 'Secret' }).count(), 0, 'shown once');
    await item.getByRole('button', { name: 'Delete Server website' }).click();
    await section.getByRole('alertdialog').getByRole('button', { name: 'Delete Server website' }).click();
    await section.getByText('Server website is deleted.').waitFor();
    await section.getByText('No app is registered: launchers use the shared client.').waitFor();
    assert.equal(await clientAuthentication(id, secret), 'invalid_client', 'a deleted app authenticates no more');
  });
});
