// App passwords on the profile in a real browser (Debian's Chromium), on SQLite and PostgreSQL: a player makes one with
// their password (a wrong one is said on its field and makes nothing), sees it once and copies it with the button, a
// launcher logs in with it, the list shows its last use, and the player revokes it after a confirmation in the page.
// Each state is axe-clean.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { assertAccessibleInBothThemes } from '../support/accessibility.ts';
import { browserMissing, logIn, openWatchedPage, screenshot, servePagesToBrowser } from '../support/browser.ts';
import { describeEachDatabase } from '../support/databases.ts';
import type { TestService } from '../support/service.ts';

const skipReason = browserMissing();
const GRAVIT_TOKEN = 'launchserver-shared-secret-0123';

describeEachDatabase('app passwords in a browser', (kind) => {
  let service: TestService;
  let browser: Browser;
  let origin: string;
  let close: (() => Promise<void>) | undefined;
  before(async () => {
    if (skipReason) return;
    ({ service, browser, origin, close } = await servePagesToBrowser(kind, GRAVIT_TOKEN));
  });
  after(() => close?.());

  const gameLogin = (username: string, password: string) =>
    service.call('POST', '/api/yggdrasil/authserver/authenticate', { body: { username, password } });

  it('makes one shown once with a copy button, lists its last use, and revokes it', { skip: skipReason ?? false }, async () => {
    const player = await service.registerPlayer();
    const page = await openWatchedPage(browser, origin, { context: { permissions: ['clipboard-read', 'clipboard-write'] } });
    await logIn(page, origin, player.username, player.password);

    const section = page.getByRole('region', { name: 'App passwords' });
    await section.getByText('You have no app passwords.').waitFor();
    await section.getByLabel('What it is for').fill('HMCL on the laptop');
    await section.getByLabel('Your password').fill('not my password');
    await section.getByRole('button', { name: 'Make app password' }).click();
    await section.getByText('Wrong password: making an app password asks for your current password').waitFor();
    assert.equal(await section.getByRole('listitem').count(), 0, 'nothing made');
    await section.getByLabel('Your password').fill(player.password);
    await section.getByRole('button', { name: 'Make app password' }).click();
    await section.getByRole('heading', { name: 'App password for HMCL on the laptop' }).waitFor();
    const shown = section.getByRole('textbox', { name: 'App password', exact: true });
    const password = await shown.inputValue();
    assert.match(password, /^app(-[2-9a-hjkmnp-z]{7}){4}$/);
    assert.equal(await section.getByLabel('What it is for').inputValue(), '', 'the form is ready for another');
    assert.equal(await section.getByLabel('Your password').inputValue(), '', 'the password is not kept in the form');
    await service.mailbox.waitFor(
      (mail) => mail.subject === 'An app password was made for your account' && /HMCL on the laptop/.test(mail.text ?? ''),
    );
    await section.getByRole('button', { name: 'Copy App password' }).click();
    await section.getByText('Copied').waitFor();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), password);
    await assertAccessibleInBothThemes(page, 'a new app password');
    await screenshot(page, 'web-app-password-made', section);

    const item = section.getByRole('listitem', { name: 'HMCL on the laptop' });
    assert.match(await item.innerText(), /never used/);
    assert.equal((await gameLogin(player.username, password)).status, 200, 'a launcher logs in with it');
    await section.getByRole('button', { name: 'Done, hide it' }).click();
    assert.equal(await shown.count(), 0, 'shown once');
    await page.reload();
    await item.getByText(/last used/).waitFor();

    await item.getByRole('button', { name: 'Revoke the app password HMCL on the laptop' }).click();
    const question = section.getByRole('alertdialog');
    assert.match(await question.innerText(), /Launchers that log in with it cannot any more/);
    await assertAccessibleInBothThemes(page, 'the revocation question');
    await question.getByRole('button', { name: 'Revoke HMCL on the laptop' }).click();
    await section.getByText('The app password HMCL on the laptop is revoked.').waitFor();
    await section.getByText('You have no app passwords.').waitFor();
    assert.equal((await gameLogin(player.username, password)).status, 403, 'the launcher cannot log in with it any more');
  });
});
