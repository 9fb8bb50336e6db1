// The console's launcher apps (Yggdrasil Connect clients, contract section 18) in a real browser, on SQLite and
// PostgreSQL: the owner registers a confidential app, copies its id and secret shown once, and the token endpoint
// takes that secret (a wrong one is invalid_client); the app is listed; deleting it after a confirmation in the page
// removes it. Axe-clean in both themes. The form starts afresh after each registration, and a public app with a
// website's redirect is registered only after a confirmation that says what public means.
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

  it(
    'clears the whole form after a registration, and asks before registering a website as a public app',
    { skip: skipReason ?? false },
    async () => {
      const page = await openWatchedPage(browser, origin);
      await logInWithToken(page, origin, await service.ownerToken());
      await page.goto(`${origin}/admin?tab=clients`);
      const section = page.getByRole('region', { name: 'Apps that log players in (Yggdrasil Connect)' });
      const name = section.getByLabel('Name players see');
      const redirects = section.getByLabel('Redirect addresses, one per line');
      const publicBox = section.getByRole('checkbox', { name: "Public: an app on the player's computer, without a secret" });
      const deviceBox = section.getByRole('checkbox', { name: 'May use device login (a code typed on this site)' });

      await name.fill('Our launcher');
      await publicBox.check();
      await deviceBox.check();
      await section.getByRole('button', { name: 'Register', exact: true }).click();
      await section.getByText('Our launcher is registered.').waitFor();
      assert.equal(await name.inputValue(), '');
      assert.equal(await publicBox.isChecked(), false, 'Public is cleared with the rest');
      assert.equal(await deviceBox.isChecked(), false, 'device login is cleared with the rest');

      // A website, with Public ticked by mistake: the page asks, and Cancel registers nothing.
      await name.fill('Community website');
      await redirects.fill('https://forum.example.org/oauth/callback');
      await publicBox.check();
      await section.getByRole('button', { name: 'Register', exact: true }).click();
      const question = section.getByRole('alertdialog', { name: 'Register as public' });
      assert.match(await question.innerText(), /A public app has no secret: anyone may use its client id/);
      assert.match(await question.innerText(), /A website should be confidential \(untick Public\)/);
      await assertAccessibleInBothThemes(page, 'the public question');
      await page.keyboard.press('Escape');
      await question.waitFor({ state: 'detached' });
      assert.equal(await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.type), 'checkbox', 'back on Public');
      assert.equal(await section.getByRole('listitem', { name: 'Community website' }).count(), 0, 'nothing registered');
      await publicBox.uncheck();
      await section.getByRole('button', { name: 'Register', exact: true }).click();
      await section.getByRole('heading', { name: 'The secret of Community website' }).waitFor();
      assert.match(await section.getByRole('listitem', { name: 'Community website' }).innerText(), /confidential, with a secret/);

      // Asked and confirmed: a public app with an https redirect is still possible.
      await name.fill('Browser game');
      await redirects.fill('https://game.example.org/cb');
      await publicBox.check();
      await section.getByRole('button', { name: 'Register', exact: true }).click();
      await section.getByRole('alertdialog').getByRole('button', { name: 'Register as public' }).click();
      await section.getByText('Browser game is registered.').waitFor();
      assert.match(await section.getByRole('listitem', { name: 'Browser game' }).innerText(), /public, without a secret/);
    },
  );
});
