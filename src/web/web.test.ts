// The pages in a real browser (Debian's Chromium): a player's whole journey from registration to wearing a cape
// that an owner granted in the admin console, checked in the browser, in the mails and in the launcher document.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { decodePng } from '../rendering/png.ts';
import { describeEachDatabase } from '../../test/support/databases.ts';
import { browserMissing, DESKTOP, freePort, launchBrowser, PHONE, screenshot, watchPage } from '../../test/support/browser.ts';
import { fixture, FIXTURES } from '../../test/support/fixtures.ts';
import { OWNER, startService, uniqueName, type TestService } from '../../test/support/service.ts';
import { linkIn, mailTo } from '../../test/support/smtp.ts';

const skipReason = browserMissing();
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** How many pixels of a screenshot are far from the page's white and grey: a drawn figure, not an empty canvas. */
function paintedPixels(png: Buffer): number {
  const { data } = decodePng(png);
  let painted = 0;
  for (let offset = 0; offset < data.length; offset += 4) {
    const [red, green, blue] = [data[offset]!, data[offset + 1]!, data[offset + 2]!];
    if (Math.max(red, green, blue) - Math.min(red, green, blue) > 40) painted += 1;
  }
  return painted;
}

describeEachDatabase('web pages in a browser', (kind) => {
  let service: TestService;
  let browser: Browser;
  let origin: string;

  before(async () => {
    if (skipReason) return;
    const port = await freePort();
    origin = `http://127.0.0.1:${port}`;
    service = await startService(kind, { settings: { owner: OWNER, port, publicUrl: origin } });
    await service.app.listen({ port, host: '127.0.0.1' });
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await service?.close();
  });

  const openPage = async (viewport: { width: number; height: number }): Promise<Page> => {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    const seen = watchPage(page, origin);
    after(() => assert.deepEqual(seen, [], 'the pages had errors or reached another origin'));
    page.on('dialog', (dialog) => void dialog.accept());
    return page;
  };

  it('takes a player from registration to wearing a cape the owner granted', { skip: skipReason ?? false }, async () => {
    const player = await openPage(PHONE);
    const username = uniqueName('web');
    const mail = `${username}@example.org`;
    const password = 'correct horse battery';

    // Step 1: register; the page says a code was sent.
    await player.goto(`${origin}/register`);
    await player.getByLabel('Mail address').fill(mail);
    await player.getByLabel('Password').fill(password);
    await player.getByRole('button', { name: 'Register' }).click();
    await player.waitForURL(`${origin}/register/confirm`);
    await player.getByText(`We sent a code to ${mail}`).waitFor();

    // Step 2: the link from the mail that arrived at the SMTP server confirms at once.
    const link = linkIn(await service.mailbox.waitFor(mailTo(mail)));
    assert.ok(link.startsWith(`${origin}/register/confirm?code=`), link);
    await player.goto(link);
    await player.waitForURL(`${origin}/login`);
    await player.getByText('Your mail address is confirmed').waitFor();

    // A wrong password shows the API's own message; then login leads to step 3.
    await player.getByLabel('Username or mail').fill(mail);
    await player.getByLabel('Password').fill('wrong password');
    await player.getByRole('button', { name: 'Log in' }).click();
    await player.getByRole('alert').waitFor();
    assert.match(await player.getByRole('alert').innerText(), /password/i);
    await player.getByLabel('Password').fill(password);
    await player.getByRole('button', { name: 'Log in' }).click();
    await player.waitForURL(`${origin}/register/finish`);
    await screenshot(player, `${kind}-1-finish-phone`);

    // Step 3: username and password again, then the profile.
    await player.getByLabel('Username').fill(username);
    await player.getByLabel('Password (again)').fill(password);
    await player.getByRole('button', { name: 'Finish' }).click();
    await player.waitForURL(`${origin}/home`);
    await player.getByRole('heading', { name: username }).waitFor();
    await player.getByText('No skins yet').waitFor();

    // Drop a skin on the upload zone, as a user drags a file from their desktop.
    const skinBytes = fixture('skins/classic.png');
    const dropped = await player.evaluateHandle((base64) => {
      const transfer = new DataTransfer();
      const bytes = Uint8Array.from(atob(base64), (character) => character.charCodeAt(0));
      transfer.items.add(new File([bytes], 'classic.png', { type: 'image/png' }));
      return transfer;
    }, skinBytes.toString('base64'));
    await player.dispatchEvent('.dropzone', 'drop', { dataTransfer: dropped });
    await player.getByText('classic.png uploaded').waitFor();
    const skinUuid = await player.locator('li[data-skin-uuid]').first().getAttribute('data-skin-uuid');
    assert.ok(skinUuid);

    // The 3D viewer loaded that skin and draws a figure on its canvas.
    await player.locator(`figure.preview[data-skin="/api/skin/cloak/${skinUuid}"]`).waitFor();
    const canvas = player.getByLabel(`3D preview of ${username}`);
    await player.waitForTimeout(300); // the next animation frame draws the loaded texture
    assert.ok(paintedPixels(await canvas.screenshot()) > 2000, 'the viewer draws the coloured skin');
    await screenshot(player, `${kind}-2-home-with-skin-phone`);

    // The owner, in the admin console on a desktop, finds the player and uploads a cape for them.
    const owner = await openPage(DESKTOP);
    await owner.goto(`${origin}/login`);
    await owner.getByLabel('Username or mail').fill(OWNER.username);
    await owner.getByLabel('Password').fill(OWNER.password);
    await owner.getByRole('button', { name: 'Log in' }).click();
    await owner.waitForURL(`${origin}/home`);
    await owner.getByRole('link', { name: 'Admin' }).click();
    await owner.getByLabel('Search by username or mail').fill(username);
    const row = owner.getByRole('row', { name: new RegExp(username) });
    await row.waitFor();
    const playerId = (await row.locator('td').first().innerText()).trim();
    await owner.getByRole('link', { name: 'Capes' }).click();
    await owner.getByLabel('Cape name').fill('Founders');
    await owner.getByLabel('Owners (user ids, comma-separated)').fill(playerId);
    await owner.getByLabel('Cape PNG').setInputFiles(`${FIXTURES}/capes/cape.png`);
    await owner.getByRole('button', { name: 'Upload cape' }).click();
    await owner.getByText('Cape uploaded').waitFor();
    await owner.getByText(`owners: ${playerId}`).waitFor();
    await screenshot(owner, `${kind}-3-admin-capes`);

    // The player sees the cape, wears it, and the viewer shows it from behind.
    await player.reload();
    const capeItem = player.locator('li[data-cape-uuid]', { hasText: 'Founders' });
    await capeItem.getByRole('button', { name: 'Wear' }).click();
    await capeItem.getByText('worn').waitFor();
    const capeUuid = await capeItem.getAttribute('data-cape-uuid');
    await player.locator(`figure.preview[data-cape="/api/skin/standart/cape/${capeUuid}"]`).waitFor();
    await player.getByRole('button', { name: 'Show back' }).click();
    await player.waitForTimeout(300);
    await screenshot(player, `${kind}-4-home-cape-from-behind-phone`);

    // And the launcher document points to exactly that cape and skin: its digests are those of the bytes its URLs
    // serve, and those bytes are the pictures the player and the owner uploaded.
    const launcher = await service.call('GET', `/api/skin/launcher/${username}`);
    assert.equal(launcher.status, 200);
    for (const [texture, uploaded] of [['SKIN', skinBytes], ['CAPE', fixture('capes/cape.png')]] as const) {
      const served = await service.call('GET', new URL(launcher.body[texture].url).pathname);
      assert.equal(launcher.body[texture].digest, sha256(served.raw), `${texture} digest`);
      assert.deepEqual(decodePng(served.raw).data, decodePng(uploaded).data, `${texture} pixels`);
    }
  });
});
