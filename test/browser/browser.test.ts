// The pages in a real browser (Debian's Chromium): a player's whole journey from registration to wearing a cape
// that an owner granted in the admin console, checked in the browser, in the mails and in the launcher document.
// The browser opens the service by 127.0.0.1 while its PUBLIC_URL names another host, as when a home-server owner
// first tries it by the machine's address: the API's absolute `url` values and mailed links say http://skins.test.
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { after, before, it } from 'node:test';
import type { Browser, Page, Response } from 'playwright-core';
import { HARDWARE_INFO_EXAMPLE } from '../../src/gravit/shapes.ts';
import { decodePng } from '../../src/rendering/png.ts';
import { describeEachDatabase } from '../support/databases.ts';
import {
  browserMissing,
  DESKTOP,
  LOGIN_PAGE_BUDGET,
  logIn,
  openWatchedPage,
  PHONE,
  screenshot,
  servePagesToBrowser,
  SITE_NAME,
} from '../support/browser.ts';
import { fixture, FIXTURES } from '../support/fixtures.ts';
import { LaunchServerRequester } from '../support/launchserver.ts';
import { OWNER, PUBLIC_URL, uniqueName, type TestService } from '../support/service.ts';
import { paintedPixels } from '../support/rendering.ts';
import { linkIn, mailTo } from '../support/smtp.ts';

const skipReason = browserMissing();
/** The LaunchServer's secret: the GravitLauncher API is on, so that the tests can report hardware through it. */
const GRAVIT_TOKEN = 'launchserver-shared-secret-0123';
/** The real time, moved on by the tests past waits the service imposes (one mail a minute to an address). */
const clock = {
  ahead: 0,
  now: () => Date.now() + clock.ahead,
};
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** A line of three.js that survives minifying (its warnings name the renderer): how a chunk holding it is known. */
const THREE_JS = /THREE\.WebGLRenderer/;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

describeEachDatabase('web pages in a browser', (kind) => {
  let service: TestService;
  let browser: Browser;
  let origin: string;

  let close: (() => Promise<void>) | undefined;
  before(async () => {
    if (skipReason) return;
    ({ service, browser, origin, close } = await servePagesToBrowser(kind, GRAVIT_TOKEN, clock));
  });
  after(() => close?.());

  const openPage = (viewport: { width: number; height: number }): Promise<Page> => openWatchedPage(browser, origin, { viewport });

  /** A mailed link (it starts with PUBLIC_URL) as opened on the address the browser uses. */
  const onThisOrigin = (link: string) => {
    const { pathname, search } = new URL(link);
    return `${origin}${pathname}${search}`;
  };

  /** The header's link to the front page, which names the site. */
  const siteNameInHeader = (page: Page) => page.getByRole('banner').getByRole('link', { name: SITE_NAME });

  it('takes a player from registration to wearing a cape the owner granted', { skip: skipReason ?? false }, async () => {
    const player = await openPage(PHONE);
    const username = uniqueName('web');
    const mail = `${username}@example.org`;
    const password = 'correct horse battery';

    // Step 1: register, the password once (a switch shows it); then the page says a code was sent.
    const registrations: string[] = [];
    player.on('request', (request) => void (request.url().endsWith('/api/auth/register') && registrations.push(request.method())));
    await player.goto(`${origin}/register`);
    await siteNameInHeader(player).waitFor();
    await player.getByLabel('Mail address').fill(mail);
    await player.getByLabel('Password', { exact: true }).fill(password);
    assert.equal(await player.locator('input[type=password]').count(), 1, 'asked once');
    await player.getByLabel('Show password').check();
    assert.equal(await player.getByLabel('Password', { exact: true }).getAttribute('type'), 'text');
    await screenshot(player, `${kind}-0-register-password-shown-phone`);
    await player.getByRole('button', { name: 'Register' }).click();
    await player.waitForURL(`${origin}/register/confirm`);
    await player.getByText(`We sent a code to ${mail}`).waitFor();
    assert.deepEqual(registrations, ['POST']);
    const firstMail = await service.mailbox.waitFor(mailTo(mail));
    // From here on as another browser would be (registration-flow.browser.test.ts follows the browser that
    // registered): the confirm page sends the player to register again, and asks for the password when it confirms.
    await player.evaluate(() => localStorage.removeItem('skinservice.registration'));
    await player.reload();

    // No mail seen? The confirm page leads to registering again: a second mail with a new link.
    const sendAgain = player.getByRole('region', { name: 'No mail?' });
    await sendAgain.getByRole('link', { name: 'register again' }).click();
    await player.waitForURL(`${origin}/register`);
    await player.getByLabel('Mail address').fill(mail);
    await player.getByLabel('Password', { exact: true }).fill(password);
    await player.getByRole('button', { name: 'Register' }).click();
    // At once, the service says to wait (one mail a minute to an address); a minute later it sends.
    await player
      .getByRole('alert')
      .getByText(/wait a minute/)
      .waitFor();
    clock.ahead += 61_000;
    await player.getByRole('button', { name: 'Register' }).click();
    await player.waitForURL(`${origin}/register/confirm`);
    await player.getByText(`We sent a code to ${mail}`).waitFor();
    const secondMail = await service.mailbox.waitFor((candidate) => mailTo(mail)(candidate) && candidate !== firstMail);
    assert.notEqual(linkIn(secondMail), linkIn(firstMail), 'a new code');

    // Step 2: the link from the newest mail that arrived at the SMTP server, opened where nobody registered: the page
    // asks for the account's password (the address was registered twice), then confirms and logs in.
    const link = linkIn(secondMail);
    assert.ok(link.startsWith(`${PUBLIC_URL}/register/confirm?code=`), link);
    await player.evaluate(() => localStorage.removeItem('skinservice.registration')); // the link opens elsewhere
    await player.goto(onThisOrigin(link));
    await player.getByText('This browser did not register the account').waitFor();
    await player.getByLabel('Password', { exact: true }).fill(password);
    await player.getByRole('button', { name: 'Confirm' }).click();
    await player.waitForURL(`${origin}/register/finish`);
    await screenshot(player, `${kind}-1-finish-phone`);

    // Step 3 asks for the name in the game only (a second password field would replace the password unchecked), then
    // the profile; the password chosen still logs in.
    assert.equal(await player.getByLabel(/password/i).count(), 0, 'step 3 asks for no password');
    await player.getByLabel('Your name in the game').fill(username);
    await player.getByRole('button', { name: 'Finish' }).click();
    await player.waitForURL(`${origin}/home`);
    await player.getByRole('heading', { name: username }).waitFor();
    await player.getByText('No skins yet').waitFor();

    // A wrong password shows the API's own message; the right one logs in.
    const elsewhere = await openPage(PHONE);
    await elsewhere.goto(`${origin}/login`);
    await elsewhere.getByLabel('Username or mail').fill(mail);
    await elsewhere.getByLabel('Password', { exact: true }).fill('wrong password');
    await elsewhere.getByRole('button', { name: 'Log in' }).click();
    await elsewhere.getByRole('alert').waitFor();
    assert.match(await elsewhere.getByRole('alert').innerText(), /password/i);
    await logIn(elsewhere, origin, username, password, { onLoginPage: true });

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
    await logIn(owner, origin, OWNER.username, OWNER.password);
    await owner.getByRole('link', { name: 'Admin' }).click();
    await owner.getByRole('link', { name: 'Users' }).click();
    await owner.getByLabel('Search by username or mail').fill(username);
    await owner.getByRole('row', { name: new RegExp(username) }).waitFor();
    await owner.getByRole('link', { name: 'Capes' }).click();
    await owner.getByLabel('Cape name').fill('Founders');
    await owner.getByLabel('Owners').fill(username);
    await owner.getByLabel('Cape PNG').setInputFiles(`${FIXTURES}/capes/cape.png`);
    await owner.getByRole('button', { name: 'Upload cape' }).click();
    await owner.getByText('Cape uploaded').waitFor();
    await owner.getByRole('listitem', { name: 'Cape Founders' }).getByRole('link', { name: username }).waitFor();
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
    for (const [texture, uploaded] of [
      ['SKIN', skinBytes],
      ['CAPE', fixture('capes/cape.png')],
    ] as const) {
      const served = await service.call('GET', new URL(launcher.body[texture].url).pathname);
      assert.equal(launcher.body[texture].digest, sha256(served.raw), `${texture} digest`);
      assert.deepEqual(decodePng(served.raw).data, decodePng(uploaded).data, `${texture} pixels`);
    }
  });

  it(
    'gives a player the game login address and their UUID to copy, and the link to drag into a launcher',
    { skip: skipReason ?? false },
    async () => {
      const account = await service.registerPlayer();
      const uuid = (await service.call('GET', '/api/home', { token: account.token })).body.data.Uuid;
      // PUBLIC_URL's, while the browser is at 127.0.0.1: the page must take it from the service, not from its own address.
      const apiRoot = `${PUBLIC_URL}/api/yggdrasil/`;
      const page = await openPage(PHONE);
      await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
      await logIn(page, origin, account.username, account.password);

      const card = page.getByRole('region', { name: 'Play Minecraft with this account' });
      assert.equal(await card.getByLabel('Authentication server address', { exact: true }).inputValue(), apiRoot);
      assert.equal(await card.getByLabel('Your UUID', { exact: true }).inputValue(), uuid);
      // The launcher document is at PUBLIC_URL too, and it is this player's.
      const launcherDocument = `${PUBLIC_URL}/api/skin/launcher/${uuid}`;
      assert.equal(await card.getByLabel('Launcher document', { exact: true }).inputValue(), launcherDocument);
      assert.equal((await service.call('GET', new URL(launcherDocument).pathname)).status, 200);
      for (const how of ['GravitLauncher', 'CustomSkinLoader']) {
        await card.getByText(how, { exact: true }).click();
        await card
          .getByText(how === 'GravitLauncher' ? /ask them for the launcher/ : /type CustomSkinAPI with the root address below/)
          .waitFor();
      }

      // Copy by mouse, and by keyboard; each field announces its own outcome.
      const clipboard = () => page.evaluate(() => navigator.clipboard.readText());
      await card.getByRole('button', { name: 'Copy Authentication server address' }).click();
      await card.getByRole('status').filter({ hasText: 'Copied' }).waitFor();
      assert.equal(await clipboard(), apiRoot);
      await card.getByRole('button', { name: 'Copy Your UUID' }).focus();
      await page.keyboard.press('Enter');
      await page.waitForFunction((expected) => navigator.clipboard.readText().then((text) => text === expected), uuid);
      assert.equal(await card.getByRole('status').filter({ hasText: 'Copied' }).count(), 2);
      await card.getByRole('button', { name: 'Copy Launcher document' }).click();
      await page.waitForFunction((expected) => navigator.clipboard.readText().then((text) => text === expected), launcherDocument);

      // The link carries authlib-injector's drag data; dragged onto a drop target, the target receives it as a copy.
      const dragData = `authlib-injector:yggdrasil-server:${encodeURIComponent(apiRoot)}`;
      const link = card.getByRole('link', { name: 'Game login at skins.test' });
      assert.equal(await link.getAttribute('href'), dragData);
      await page.evaluate(() => {
        const target = document.createElement('div');
        target.id = 'launcher';
        target.textContent = 'a launcher';
        // Fixed in view beside the link, so that the drag needs no scrolling.
        Object.assign(target.style, { position: 'fixed', top: '0', left: '0', width: '200px', height: '100px', background: '#ddd' });
        target.addEventListener('dragover', (event) => event.preventDefault());
        target.addEventListener('drop', (event) => {
          event.preventDefault();
          const transfer = event.dataTransfer!;
          target.dataset.dropped = JSON.stringify({ text: transfer.getData('text/plain'), effectAllowed: transfer.effectAllowed });
        });
        document.body.append(target);
      });
      await link.dragTo(page.locator('#launcher'));
      const dropped = JSON.parse((await page.locator('#launcher').getAttribute('data-dropped')) ?? 'null');
      assert.deepEqual(dropped, { text: dragData, effectAllowed: 'copy' });
      await page.evaluate(() => document.getElementById('launcher')!.remove());

      // A click does not leave the page; it says to drag instead.
      await link.click();
      await page.getByText('Drag the link into your launcher').waitFor();
      assert.equal(page.url(), `${origin}/home`);
      await screenshot(page, `${kind}-9-home-game-login-phone`);
      await screenshot(page, `${kind}-10-game-login-card-phone`, card);
    },
  );

  it('resets a forgotten password from the mailed link', { skip: skipReason ?? false }, async () => {
    const account = await service.registerPlayer();
    const page = await openPage(PHONE);
    await page.goto(`${origin}/login`);
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.getByLabel('Mail address').fill(account.mail);
    await page.getByRole('button', { name: 'Send a reset code' }).click();
    await page.waitForURL(`${origin}/reset/confirm`);

    const link = linkIn(await service.mailbox.waitFor((mail) => mailTo(account.mail)(mail) && /reset/i.test(mail.subject ?? '')));
    assert.ok(link.startsWith(`${PUBLIC_URL}/reset/confirm?code=`), link);
    await page.goto(onThisOrigin(link));
    // The same component as registration's: the password once, with a switch that shows it.
    await page.getByLabel('New password').fill('a brand new password');
    await page.getByLabel('Show password').check();
    assert.equal(await page.getByLabel('New password').getAttribute('type'), 'text');
    await page.getByRole('button', { name: 'Set the new password' }).click();
    await page.waitForURL(`${origin}/login`);
    await page.getByText('Your password is changed').waitFor();

    await logIn(page, origin, account.username, 'a brand new password', { onLoginPage: true });
    await page.getByRole('heading', { name: account.username }).waitFor();
    assert.equal((await service.call('GET', '/api/home', { token: account.token })).status, 401, 'the reset ended the old session');
  });

  it('shows each level the admin actions it may take, and grants a role with an expiry', { skip: skipReason ?? false }, async () => {
    const helper = await service.registerPlayer();
    const owner = await openPage(DESKTOP);
    await logIn(owner, origin, OWNER.username, OWNER.password);
    await owner.goto(`${origin}/admin?tab=users`);
    await owner.getByLabel('Search by username or mail').fill(helper.username);
    await owner.getByRole('link', { name: helper.username }).click();
    const editor = owner.getByRole('region', { name: `User ${helper.username}` });
    await editor.getByLabel('Role', { exact: true }).selectOption('1');
    const inAWeek = new Date(Date.now() + 7 * 24 * 3600_000);
    const local = new Date(inAWeek.getTime() - inAWeek.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
    await editor.getByLabel('Expires (empty: never)').fill(local);
    await editor.getByRole('button', { name: 'Grant role' }).click();
    await editor.getByText('Role moderator granted until').waitFor();
    await editor.getByText('Acts as moderator (stored level player, raised by a role)', { exact: true }).waitFor();
    // The stored level stays 0: saving the form must not write the granted level into it.
    assert.equal(await editor.getByLabel('Permission level (without role grants)').inputValue(), '0');
    await editor.getByRole('button', { name: 'Save user' }).click();
    await editor.getByText('Nothing changed').waitFor();
    await screenshot(owner, `${kind}-5-admin-user-editor`);

    await owner.getByRole('button', { name: 'Close' }).click();
    await owner.getByRole('link', { name: 'Audit log' }).click();
    await owner.getByLabel('What happened').selectOption({ label: 'role granted' });
    await owner.getByRole('button', { name: 'Filter' }).click();
    await owner.getByRole('cell', { name: 'role granted' }).first().waitFor();
    const detail = await service.call('GET', `/api/admin/user/${helper.username}`, { token: await service.ownerToken() });
    assert.equal(detail.body.data.PermLvl, 1, 'the granted level counts');

    // The new moderator reads everything but is offered no change.
    const moderator = await openPage(PHONE);
    await logIn(moderator, origin, helper.username, helper.password);
    await moderator.getByRole('link', { name: 'Admin' }).click();
    await moderator.getByText('You are moderator (level 1).').waitFor();
    await moderator.getByRole('link', { name: 'Users' }).click();
    await moderator.getByRole('link', { name: OWNER.username }).click();
    await moderator.getByText('Moderators can read users; admins edit them.').waitFor();
    assert.equal(await moderator.getByRole('button', { name: 'Save user' }).count(), 0);
    assert.equal(await moderator.getByRole('link', { name: 'Mail everyone' }).count(), 0);
    await moderator.getByRole('button', { name: 'Close' }).click();
    await moderator.getByRole('link', { name: 'Capes' }).click();
    assert.equal(await moderator.getByRole('button', { name: 'Upload cape' }).count(), 0);
    await screenshot(moderator, `${kind}-6-admin-moderator-phone`);

    // A plain player is told the console is not for them.
    const player = await service.registerPlayer();
    const visitor = await openPage(PHONE);
    await logIn(visitor, origin, player.username, player.password);
    await visitor.goto(`${origin}/admin`);
    await visitor.getByText('This console needs permission level 1').waitFor();
  });

  it(
    'lists the hardware GravitLauncher reported with its players, and lets the owner ban it there and unban it on the player',
    { skip: skipReason ?? false },
    async () => {
      // A LaunchServer reports a player's machine and links the player to it, as at a launcher start.
      const account = await service.registerPlayer();
      const launchServer = new LaunchServerRequester(service, GRAVIT_TOKEN);
      const info = { ...HARDWARE_INFO_EXAMPLE, hwDiskId: `DISK-${uniqueName()}`, baseboardSerialNumber: `BOARD-${uniqueName()}` };
      const created = await launchServer.post('hardware/create', { info, publicKey: randomBytes(91).toString('base64url') });
      assert.ok(created.ok);
      const hardware = created.result;
      const session = await launchServer.post('authorize', { login: account.username, password: account.password });
      assert.ok(session.ok);
      assert.ok((await launchServer.post('hardware/connect', { hardware, userSession: session.result })).ok);
      const ownerToken = await service.ownerToken();
      const playerId = (await service.call('GET', `/api/admin/users?search=${account.username}`, { token: ownerToken })).body.data[0].id;
      /** The player's hardware as the admin API lists it: [id, banned] each. */
      const playersHardware = async () =>
        (await service.call('GET', `/api/admin/hardware?user=${playerId}`, { token: ownerToken })).body.data.map(
          (record: { id: string; banned: boolean }) => [record.id, record.banned],
        );

      const owner = await openPage(DESKTOP);
      const dialogs: string[] = [];
      owner.on('dialog', (dialog) => dialogs.push(dialog.message()));
      await logIn(owner, origin, OWNER.username, OWNER.password);
      await owner.getByRole('link', { name: 'Admin' }).click();
      await owner.getByRole('link', { name: 'Hardware' }).click();
      await owner.waitForURL(`${origin}/admin?tab=hardware`);

      // The row says what the machine is in plain words, and who used it.
      const row = owner.getByRole('row', { name: new RegExp(info.hwDiskId) });
      const cells = async () => (await row.getByRole('cell').allInnerTexts()).map((text) => text.replace(/\u00a0/g, ' ').trim());
      await row.waitFor();
      assert.deepEqual(await cells(), [
        hardware.id,
        info.hwDiskId,
        info.baseboardSerialNumber,
        'NVIDIA GeForce RTX 3060',
        '16 GiB',
        '4 cores, 8 threads, 3.6 GHz',
        account.username,
        'no',
        'Ban',
      ]);

      // Ban asks in the page first; Cancel changes nothing.
      await row.getByRole('button', { name: 'Ban' }).click();
      const askBan = owner.getByRole('alertdialog', { name: `Ban hardware ${hardware.id}` });
      assert.match(await askBan.innerText(), new RegExp(`every account: ${account.username}\\.`));
      await askBan.getByRole('button', { name: 'Cancel' }).click();
      await askBan.waitFor({ state: 'detached' });
      assert.deepEqual(await playersHardware(), [[hardware.id, false]], 'cancelled: not banned');
      await row.getByRole('button', { name: 'Ban' }).click();
      await screenshot(owner, `${kind}-11-admin-hardware-asking`);
      await askBan.getByRole('button', { name: `Ban hardware ${hardware.id}` }).click();
      await owner
        .getByRole('status')
        .filter({ hasText: `Hardware ${hardware.id} is banned` })
        .waitFor();
      await row.getByRole('cell', { name: 'banned', exact: true }).waitFor();
      assert.deepEqual(await playersHardware(), [[hardware.id, true]]);
      const seen = await launchServer.post('hardware/getbyid', { id: hardware.id });
      assert.equal(seen.ok && seen.result.banned, true, 'the LaunchServer sees the ban');
      await screenshot(owner, `${kind}-11-admin-hardware`);

      // The player's name leads to the user editor, which lists the same machine; unban it there.
      await row.getByRole('link', { name: account.username }).click();
      const editor = owner.getByRole('region', { name: `User ${account.username}` });
      const editorRow = editor.getByRole('row', { name: new RegExp(info.hwDiskId) });
      await editorRow.getByRole('cell', { name: 'banned', exact: true }).waitFor();
      await editorRow.getByRole('button', { name: 'Unban' }).click();
      await editor
        .getByRole('alertdialog', { name: `Unban hardware ${hardware.id}` })
        .getByRole('button', { name: `Unban hardware ${hardware.id}` })
        .click();
      await editor
        .getByRole('status')
        .filter({ hasText: `Hardware ${hardware.id} is no longer banned` })
        .waitFor();
      await editorRow.getByRole('cell', { name: 'no', exact: true }).waitFor();
      assert.deepEqual(await playersHardware(), [[hardware.id, false]]);
      await screenshot(owner, `${kind}-12-admin-user-hardware`, editor);
      assert.deepEqual(dialogs, [], 'no browser dialog: the confirmations are in the page');

      const audit = await service.call('GET', `/api/admin/audit?iss=${OWNER.username}&limit=1000`, { token: ownerToken });
      const changes = audit.body.data
        .filter((entry: { details: { hardware?: number } | null }) => entry.details?.hardware === Number(hardware.id))
        .map((entry: { action: string }) => entry.action);
      assert.deepEqual(changes, ['hardware.unban', 'hardware.ban'], 'each change audited as the owner');

      // A moderator sees the list and the players, without the buttons.
      const helper = await service.registerPlayer();
      const promoted = await service.call('PATCH', `/api/admin/user/${helper.username}`, { token: ownerToken, body: { perms: 1 } });
      assert.equal(promoted.status, 200, promoted.body?.msg);
      const moderator = await openPage(PHONE);
      await logIn(moderator, origin, helper.username, helper.password);
      await moderator.goto(`${origin}/admin?tab=hardware`);
      const moderatorRow = moderator.getByRole('row', { name: new RegExp(info.hwDiskId) });
      await moderatorRow.getByRole('link', { name: account.username }).waitFor();
      assert.equal(await moderator.getByRole('button', { name: /ban/i }).count(), 0);
    },
  );

  it(
    'shows visitors a front page with the site name, leads from it and from protected pages to the login page, and from there back',
    { skip: skipReason ?? false },
    async () => {
      const account = await service.registerPlayer();
      const page = await openPage(PHONE);
      // The front page: the site's name (SERVER_NAME) as its heading and in the header, what it is for, and the ways in.
      await page.goto(`${origin}/`);
      await page.getByRole('heading', { level: 1, name: SITE_NAME }).waitFor();
      await siteNameInHeader(page).waitFor();
      await page.getByText('An account for playing Minecraft with your own skin and cape').waitFor();
      assert.equal(await page.title(), SITE_NAME);
      assert.equal(page.url(), `${origin}/`);
      await screenshot(page, `${kind}-0-front-page-phone`);
      const desktop = await openPage(DESKTOP);
      await desktop.goto(`${origin}/`);
      await desktop.getByRole('heading', { level: 1, name: SITE_NAME }).waitFor();
      await screenshot(desktop, `${kind}-0-front-page`);
      await page.getByRole('link', { name: 'Create an account' }).click();
      await page.waitForURL(`${origin}/register`);
      await siteNameInHeader(page).click();
      await page.waitForURL(`${origin}/`);
      await page.getByRole('main').getByRole('link', { name: 'Log in' }).click();
      await page.waitForURL(`${origin}/login`);
      await siteNameInHeader(page).waitFor();
      for (const path of ['/home', '/admin', '/register/finish']) {
        await page.goto(`${origin}${path}`);
        await page.waitForURL(`${origin}/login${path === '/admin' ? '?next=%2Fadmin' : ''}`);
        await page.getByLabel('Username or mail').waitFor();
      }
      await page.getByText('Log in to finish your registration').waitFor();
      await screenshot(page, `${kind}-7-login-after-protected-page-phone`);

      await logIn(page, origin, account.username, account.password, { onLoginPage: true });
      await page.goto(`${origin}/`);
      await page.waitForURL(`${origin}/home`);
      await page.getByRole('heading', { name: account.username }).waitFor();
      await siteNameInHeader(page).waitFor();
    },
  );

  it('shows a page, never raw JSON, at addresses the app does not know', { skip: skipReason ?? false }, async () => {
    const page = await openPage(PHONE);
    for (const [address, landing] of [
      ['/login/', '/login'],
      ['/register/confirm/?code=X', '/register/confirm?code=X'],
      ['/home/', '/login'],
      ['/index.html', '/'],
    ]) {
      await page.goto(`${origin}${address}`);
      await page.waitForURL(`${origin}${landing}`);
      await page.getByRole('heading').first().waitFor();
      assert.doesNotMatch(await page.locator('body').innerText(), /"error"/, address);
    }

    for (const address of ['/no/such/page', '/home/extra', '/Login']) {
      const response = await page.goto(`${origin}${address}`);
      assert.equal(response?.status(), 404, address);
      await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    }
    await screenshot(page, `${kind}-8-page-not-found-phone`);
    await page.getByRole('link', { name: 'Go to the start page' }).click();
    await page.waitForURL(`${origin}/`);
    await page.getByRole('heading', { level: 1, name: SITE_NAME }).waitFor();

    // API clients keep the JSON envelope.
    const api = await service.call('GET', '/api/no/such/route');
    assert.equal(api.status, 404);
    assert.equal(api.body.error, true);
  });

  /**
   * Goes to a page by `arrive` in a fresh browser context (nothing cached) and waits for its first heading: the bytes
   * of every response (headers and body as sent, so compressed), the first contentful paint, and the scripts that
   * hold three.js.
   */
  const coldLoad = async (arrive: (page: Page) => Promise<unknown>) => {
    const page = await openPage(PHONE);
    const finished: Promise<number>[] = [];
    const scripts: Response[] = [];
    page.on('requestfinished', (request) => {
      finished.push(request.sizes().then((sizes) => sizes.responseHeadersSize + sizes.responseBodySize));
    });
    page.on('response', (response) => {
      if (response.request().resourceType() === 'script') scripts.push(response);
    });
    await arrive(page);
    await page.getByRole('heading').first().waitFor();
    await page.waitForLoadState('networkidle');
    // The browser reports the first paint when its compositor has shown a frame: on busy shared cores (pages of the
    // earlier tests still animating their 3D previews in the same browser) that can come after the network is idle.
    await page
      .waitForFunction(() => performance.getEntriesByName('first-contentful-paint').length > 0, null, { timeout: 10_000 })
      .catch(() => undefined);
    const firstPaint = await page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN);
    const bytes = (await Promise.all(finished)).reduce((sum, size) => sum + size, 0);
    const withThreeJs: string[] = [];
    for (const script of scripts) if (THREE_JS.test((await script.body()).toString())) withThreeJs.push(new URL(script.url()).pathname);
    await page.context().close();
    return { bytes, firstPaint, requests: finished.length, withThreeJs };
  };

  it(
    'loads the login page without three.js, compressed, and records its bytes and first paint',
    { skip: skipReason ?? false },
    async (t) => {
      const loads = [];
      for (let round = 0; round < 5; round++) loads.push(await coldLoad((page) => page.goto(`${origin}/login`)));
      const bytes = median(loads.map((load) => load.bytes));
      const firstPaint = median(loads.map((load) => load.firstPaint));
      t.diagnostic(
        `/login, cold cache, median of ${loads.length}: ${bytes} bytes transferred in ${loads[0]!.requests} requests, ` +
          `first contentful paint ${firstPaint.toFixed(0)} ms`,
      );
      for (const load of loads) assert.deepEqual(load.withThreeJs, [], 'the login page downloads no chunk with three.js');
      // The budget: about 25 kB of app, styles and English texts, and i18next's 14 kB (docs/performance.md, Languages).
      assert.ok(bytes < LOGIN_PAGE_BUDGET, `the login page transfers ${bytes} bytes (about 120,000 uncompressed)`);
      assert.ok(firstPaint > 0, 'the browser reports a first contentful paint');

      // The profile still gets the 3D preview: three.js comes there, as a chunk of its own, once the page is up.
      const home = await coldLoad(async (page) => {
        await logIn(page, origin, OWNER.username, OWNER.password);
        await page.locator('figure.preview[data-skin]').waitFor();
      });
      assert.equal(home.withThreeJs.length, 1, 'the profile loads the three.js chunk');
      t.diagnostic(`/login, logging in, then /home, cold cache: ${home.bytes} bytes transferred in ${home.requests} requests`);
    },
  );

  it('serves every page path as the app, assets for good, and nothing from another origin', { skip: skipReason ?? false }, async () => {
    for (const path of ['/login', '/register/confirm?code=X', '/home', '/admin']) {
      const reply = await service.call('GET', path);
      assert.equal(reply.status, 200, path);
      assert.match(String(reply.headers['content-type']), /text\/html/);
      assert.match(String(reply.headers['content-security-policy']), /default-src 'self'/);
    }
    const html = (await service.call('GET', '/home')).raw.toString();
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    assert.ok(script, 'index.html loads a bundled script');
    const asset = await service.call('GET', script);
    assert.equal(asset.status, 200);
    assert.match(String(asset.headers['cache-control']), /immutable/);
    assert.equal((await service.call('GET', '/assets/missing.js')).status, 404);
    const slashed = await service.call('GET', '/reset/confirm/?code=X');
    assert.equal(slashed.status, 301);
    assert.equal(slashed.headers.location, '/reset/confirm?code=X');
    const unknown = await service.call('GET', '/no/such/page');
    assert.equal(unknown.status, 404);
    assert.match(String(unknown.headers['content-type']), /text\/html/);
    assert.match(String(unknown.headers['content-security-policy']), /default-src 'self'/);
    assert.doesNotMatch(html, /https?:\/\//, 'index.html names no other site');
  });
});
