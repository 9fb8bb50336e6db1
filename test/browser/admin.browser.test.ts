// The admin console in a real browser (Debian's Chromium), on a desktop and on a phone: players picked by name (with
// suggestions) and shown by name, capes given and taken back, a skin deleted as moderation (the owner's mail read at
// the SMTP server), ban and unban, a temporary role marked and revoked, the permission control of a player whose name
// more than 100 others contain, the audit log filtered by an action from the list, and mail to everyone with its
// count; every section passes axe-core's check in both themes, and no browser dialog ever opens.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { accessibilityProblems } from '../support/accessibility.ts';
import { describeEachDatabase } from '../support/databases.ts';
import { browserMissing, DESKTOP, logInWithToken, openWatchedPage, PHONE, screenshot, servePagesToBrowser } from '../support/browser.ts';
import { capeFile, skinFile } from '../support/fixtures.ts';
import { OWNER, type TestService } from '../support/service.ts';
import { mailTo } from '../support/smtp.ts';
import { SECTIONS } from '../../web/src/pages/admin/sections.ts';

const skipReason = browserMissing();
const GRAVIT_TOKEN = 'launchserver-shared-secret-0123';
const VIEWPORTS = [
  ['desktop', DESKTOP],
  ['phone', PHONE],
] as const;

/** A datetime-local value `ms` from now, in the browser's (and this process's) time zone. */
const localInput = (fromNowMs: number) => {
  const at = new Date(Date.now() + fromNowMs);
  return new Date(at.getTime() - at.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
};

describeEachDatabase('admin console in a browser', (kind) => {
  let service: TestService;
  let browser: Browser;
  let origin: string;
  let ownerToken: string;
  let close: (() => Promise<void>) | undefined;
  before(async () => {
    if (skipReason) return;
    ({ service, browser, origin, close } = await servePagesToBrowser(kind, GRAVIT_TOKEN));
    ownerToken = await service.ownerToken();
  });
  after(() => close?.());

  /** The console as the owner (a fresh login), on `viewport`, at `path`. */
  const openConsole = async (viewport: { width: number; height: number }, path: string): Promise<Page> => {
    const page = await openWatchedPage(browser, origin, { viewport });
    await logInWithToken(page, origin, await service.ownerToken());
    await page.goto(`${origin}${path}`);
    return page;
  };
  const idOf = async (username: string) =>
    (await service.db.selectFrom('users').select('id').where('username', '=', username).executeTakeFirstOrThrow()).id;
  const assertAccessible = async (page: Page, what: string) => {
    assert.deepEqual(await accessibilityProblems(page), [], `${what}, light`);
    await page.emulateMedia({ colorScheme: 'dark' });
    assert.deepEqual(await accessibilityProblems(page), [], `${what}, dark`);
    await page.emulateMedia({ colorScheme: 'light' });
  };
  const editorOf = (page: Page, username: string) => page.getByRole('dialog').getByRole('region', { name: `User ${username}` });

  for (const [device, viewport] of VIEWPORTS) {
    it(`${device}: every section passes the accessibility check in both themes`, { skip: skipReason ?? false }, async () => {
      const player = await service.registerPlayer();
      await service.upload('/api/home/skins', player.token, { name: 'Plain' }, skinFile('classic'));
      await service.upload(
        '/api/admin/user/cape/upload',
        ownerToken,
        { name: 'Checked', owners: String(await idOf(player.username)) },
        capeFile('cape'),
      );
      const page = await openConsole(viewport, '/admin?tab=users');
      for (const { id: section } of SECTIONS) {
        await page.goto(`${origin}/admin?tab=${section}`);
        await page.locator('main section').first().waitFor();
        await page.waitForLoadState('networkidle');
        await assertAccessible(page, `${device} ${section}`);
        if (device === 'desktop') await screenshot(page, `${kind}-admin-${section}`);
      }
      await page.goto(`${origin}/admin?tab=users&user=${await idOf(player.username)}`);
      await editorOf(page, player.username).getByRole('heading', { name: 'Roles' }).waitFor();
      await page.waitForLoadState('networkidle');
      await assertAccessible(page, `${device} user editor`);
      await screenshot(page, `${kind}-admin-user-editor-${device}`);
    });

    it(`${device}: gives a cape to a player typed by name and takes it back`, { skip: skipReason ?? false }, async () => {
      const player = await service.registerPlayer();
      const capeName = `Gift ${device}`;
      const cape = (await service.upload('/api/admin/user/cape/upload', ownerToken, { name: capeName }, capeFile('cape'))).body.data;
      const page = await openConsole(viewport, '/admin?tab=capes');
      const item = page.getByRole('listitem', { name: `Cape ${capeName}` });
      const field = item.getByLabel(`Give “${capeName}” to`);

      await field.fill('nobody-by-this-name');
      await item.getByRole('button', { name: 'Give cape' }).click();
      await item.getByText('There is no player called “nobody-by-this-name”').waitFor();
      assert.equal(await field.getAttribute('aria-invalid'), 'true');

      // Part of the name brings the suggestion; the whole name gives the cape.
      await field.fill(player.username.slice(0, -2));
      await item.locator(`datalist option[value="${player.username}"]`).waitFor({ state: 'attached' });
      await field.fill(player.username);
      await item.getByRole('button', { name: 'Give cape' }).click();
      await item.getByText(`${player.username} can now wear the cape “${capeName}”.`).waitFor();
      await item.getByRole('link', { name: player.username }).waitFor();
      const owned = async () =>
        (await service.call('GET', '/api/home/capes', { token: player.token })).body.data.map((c: { uuid: string }) => c.uuid);
      assert.deepEqual(await owned(), [cape.uuid]);
      await assertAccessible(page, `${device} capes after giving`);
      if (device === 'desktop') await screenshot(page, `${kind}-admin-capes-given`);

      await item.getByRole('button', { name: `Take back ${capeName} from ${player.username}` }).click();
      const question = item.getByRole('alertdialog');
      await question.getByRole('button', { name: 'Cancel' }).click();
      assert.deepEqual(await owned(), [cape.uuid], 'a cancel changes nothing');
      await item.getByRole('button', { name: `Take back ${capeName} from ${player.username}` }).click();
      await item.getByRole('button', { name: `Take it from ${player.username}` }).click();
      await page.getByText(`${player.username} no longer has the cape “${capeName}”.`).waitFor();
      assert.deepEqual(await owned(), []);
      await item.getByText('nobody yet').waitFor();
    });

    it(`${device}: deletes a skin as moderation and the owner gets the reason by mail`, { skip: skipReason ?? false }, async () => {
      const player = await service.registerPlayer();
      const skinName = `Rude ${device}`;
      const skin = (await service.upload('/api/home/skins', player.token, { name: `${skinName} old` }, skinFile('classic'))).body.data;
      const page = await openConsole(viewport, '/admin?tab=skins');
      // The newest skins are on the last page.
      const total = (await service.call('GET', '/api/admin/skins?limit=1', { token: ownerToken })).headers['x-total-count'];
      for (let shown = 20; shown < Number(total); shown += 20) await page.getByRole('button', { name: 'Next' }).click();
      const oldItem = page.getByRole('listitem', { name: `Skin ${skinName} old` });
      // Renamed in the page first (no browser prompt), then deleted.
      await oldItem.getByRole('button', { name: `Rename ${skinName} old` }).click();
      await oldItem.getByLabel('New name').fill(skinName);
      await oldItem.getByRole('button', { name: 'Save name' }).click();
      await page.getByText(`The skin is now called “${skinName}”.`).waitFor();
      const item = page.getByRole('listitem', { name: `Skin ${skinName}` });
      await item.getByRole('link', { name: player.username }).waitFor();
      await item.getByRole('button', { name: `Delete ${skinName}` }).click();
      const question = item.getByRole('alertdialog', { name: `Delete the skin ${skinName}` });
      await question.getByLabel('Reason for the owner (optional)').fill('A picture nobody should see');
      await assertAccessible(page, `${device} skin moderation question`);
      if (device === 'desktop') await screenshot(page, `${kind}-admin-skin-delete`, item);
      await question.getByRole('button', { name: 'Delete the skin' }).click();
      await page.getByText(`The skin “${skinName}” is deleted; its owner gets a mail with your reason.`).waitFor();
      assert.equal((await service.call('GET', `/api/skin/cloak/${skin.uuid}`)).status, 404);
      const mail = await service.mailbox.waitFor((message) => mailTo(player.mail)(message) && (message.subject ?? '').includes(skinName));
      assert.match(mail.text ?? '', /Reason: A picture nobody should see/);
      // The list reloads after the message shows: the item leaves it then.
      await item.waitFor({ state: 'detached' });
    });

    it(`${device}: bans and unbans a player`, { skip: skipReason ?? false }, async () => {
      const player = await service.registerPlayer();
      const page = await openConsole(viewport, `/admin?tab=users&user=${await idOf(player.username)}`);
      const editor = editorOf(page, player.username);
      await editor.getByRole('button', { name: 'Ban', exact: true }).click();
      // Escape cancels the question (which takes the focus as it opens) and leaves the editor open.
      await page.waitForFunction(() => document.activeElement?.closest('[role=alertdialog]') !== null);
      await page.keyboard.press('Escape');
      await editor.getByRole('alertdialog').waitFor({ state: 'detached' });
      assert.equal(await editor.count(), 1);
      await editor.getByRole('button', { name: 'Ban', exact: true }).click();
      await editor.getByRole('button', { name: `Ban ${player.username}` }).click();
      await editor.getByText(`${player.username} is banned and logged out everywhere.`).waitFor();
      await editor.getByText('Banned.', { exact: true }).waitFor();
      assert.equal((await service.call('GET', '/api/home', { token: player.token })).status, 401, 'logged out');
      const login = () => service.call('POST', '/api/auth/login', { body: { username: player.username, password: player.password } });
      assert.equal((await login()).status, 403);
      await assertAccessible(page, `${device} banned user`);

      await editor.getByRole('button', { name: 'Unban', exact: true }).click();
      await editor.getByRole('button', { name: `Unban ${player.username}` }).click();
      await editor.getByText(`${player.username} is no longer banned and is a player again.`).waitFor();
      assert.equal((await login()).status, 200);
      const detail = await service.call('GET', `/api/admin/user/${player.username}`, { token: ownerToken });
      assert.deepEqual([detail.body.data.Perms, detail.body.data.PermLvl], [0, 0]);
      // Escape elsewhere in the editor closes it, back to the list.
      await editor.getByLabel('Mail address', { exact: true }).focus();
      await page.keyboard.press('Escape');
      await page.getByRole('dialog').waitFor({ state: 'detached' });
      assert.match(page.url(), /\/admin\?tab=users$/);
    });

    it(`${device}: grants a temporary role, marks it in the list, and revokes it`, { skip: skipReason ?? false }, async () => {
      const player = await service.registerPlayer();
      const page = await openConsole(viewport, `/admin?tab=users&user=${await idOf(player.username)}`);
      const editor = editorOf(page, player.username);
      await editor.getByLabel('Role', { exact: true }).selectOption({ label: 'admin' });
      await editor.getByLabel('Expires (empty: never)').fill(localInput(-3600_000));
      await editor.getByRole('button', { name: 'Grant role' }).click();
      await editor.getByText('Choose an end in the future').waitFor();
      assert.equal(await editor.getByLabel('Expires (empty: never)').getAttribute('aria-invalid'), 'true');
      await editor.getByLabel('Expires (empty: never)').fill(localInput(3 * 24 * 3600_000));
      await editor.getByRole('button', { name: 'Grant role' }).click();
      await editor.getByText('Role admin granted until').waitFor();
      await editor.getByText('Acts as admin').waitFor();
      await editor.locator('.grants').getByText('temporary, until').waitFor();
      if (device === 'desktop') await screenshot(page, `${kind}-admin-user-editor-role`);

      await page.getByRole('button', { name: 'Close' }).click();
      await page.getByLabel('Search by username or mail').fill(player.username);
      const row = page.getByRole('row', { name: new RegExp(player.username) });
      await row.getByText('temporary, until').waitFor();
      assert.match(await row.innerText(), /admin/);
      await assertAccessible(page, `${device} users with a temporary role`);
      if (device === 'desktop') await screenshot(page, `${kind}-admin-users-temporary`);

      await row.getByRole('link', { name: player.username }).click();
      await editor.getByRole('button', { name: 'Revoke' }).click();
      await editor.getByRole('button', { name: 'Revoke the role admin' }).click();
      await editor.getByText('The role admin is revoked.').waitFor();
      await editor.getByText('No role: the permission level alone counts.').waitFor();
      assert.deepEqual((await service.call('GET', `/api/admin/user/role/${player.username}`, { token: ownerToken })).body.data, []);
      assert.equal((await service.call('GET', '/api/admin/skins', { token: player.token })).status, 403, 'no longer an admin');
      await page.getByRole('button', { name: 'Close' }).click();
      await row.getByText('temporary, until').waitFor({ state: 'detached' });
    });

    it(`${device}: shows the permission control of a player whose name 101 others contain`, { skip: skipReason ?? false }, async () => {
      const base = `Al${randomUUID().slice(0, 6)}`;
      const player = await service.registerPlayer({ username: base });
      const now = Date.now();
      await service.db
        .insertInto('users')
        .values(
          Array.from({ length: 101 }, (_, index) => ({
            username: `${base}${index}`,
            username_key: `${base}${index}`.toLowerCase(),
            mail: `${base}${index}@example.org`,
            mail_key: `${base}${index}@example.org`.toLowerCase(),
            mail_verify: 0,
            mail_verification: 1,
            password: 'not a hash',
            uuid: randomUUID(),
            offline_uuid: randomUUID(),
            perms: 0,
            created_at: now,
            updated_at: now,
          })),
        )
        .execute();
      const page = await openConsole(viewport, `/admin?tab=users&user=${await idOf(base)}`);
      const editor = editorOf(page, base);
      const control = editor.getByLabel('Permission level (without role grants)');
      assert.equal(await control.inputValue(), '0');
      // A refused name is said on its field, in words, and nothing is saved.
      const name = editor.getByLabel('Name', { exact: true });
      await name.fill('x');
      await editor.getByRole('button', { name: 'Save user' }).click();
      await editor.getByText('A player name has 3 to 16 characters').waitFor();
      assert.equal(await name.getAttribute('aria-invalid'), 'true');
      assert.equal(await name.evaluate((input) => input === document.activeElement), true, 'the field takes the focus');
      await name.fill(base);
      await control.selectOption({ label: 'moderator' });
      await editor.getByRole('button', { name: 'Save user' }).click();
      await editor.getByText('Saved.').waitFor();
      await editor.getByText('Acts as moderator').waitFor();
      assert.equal(await control.inputValue(), '1');
      const detail = await service.call('GET', `/api/admin/user/${player.username}`, { token: ownerToken });
      assert.equal(detail.body.data.Perms, 1);
    });

    it(`${device}: filters the audit log by an action from the list and names the player`, { skip: skipReason ?? false }, async () => {
      const player = await service.registerPlayer();
      const expiry = Math.floor(Date.now() / 1000) + 3600;
      await service.call('POST', `/api/admin/user/role/${player.username}`, {
        token: ownerToken,
        body: { role_level: 1, expired_at: expiry },
      });
      const page = await openConsole(viewport, '/admin?tab=audit');
      await page.getByLabel('What happened').selectOption({ label: 'role granted' });
      await page.getByLabel('About player').fill(player.username);
      await page.getByRole('button', { name: 'Filter' }).click();
      const row = page.getByRole('row').filter({ hasText: 'granted the role moderator until' });
      await row.getByRole('link', { name: player.username }).waitFor();
      await page.waitForFunction(() => document.querySelectorAll('tbody tr').length === 1);
      const text = await row.innerText();
      assert.match(text, /role granted/);
      assert.match(text, new RegExp(OWNER.username));
      assert.match(text, /granted the role moderator until/);
      await assertAccessible(page, `${device} audit filtered`);
      if (device === 'desktop') await screenshot(page, `${kind}-admin-audit-filtered`);

      await page.getByLabel('About player').fill('nobody-by-this-name');
      await page.getByRole('button', { name: 'Filter' }).click();
      await page.getByText('There is no player called “nobody-by-this-name”').waitFor();

      await row.getByRole('link', { name: player.username }).click();
      await editorOf(page, player.username).waitFor();
      assert.match(page.url(), /tab=users&user=\d+$/);
    });

    it(`${device}: mails everyone after a confirmation and shows how many it goes to`, { skip: skipReason ?? false }, async () => {
      const player = await service.registerPlayer();
      const page = await openConsole(viewport, '/admin?tab=mail');
      const subject = `News for the ${device}`;
      await page.getByLabel('Subject').fill(subject);
      await page.getByLabel('Message').fill('The server moves on Sunday.');
      await page.getByRole('button', { name: 'Send to everyone' }).click();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Cancel' }).click();
      assert.equal(await page.getByLabel('Subject').inputValue(), subject, 'a cancel keeps the text and sends nothing');
      await page.getByRole('button', { name: 'Send to everyone' }).click();
      const { recipients } = await service.db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll<number>().as('recipients'))
        .where('mail_verify', '=', 1)
        .where('perms', '>=', 0)
        .executeTakeFirstOrThrow();
      await page.getByRole('button', { name: 'Send the mail now' }).click();
      await page
        .getByRole('status')
        .filter({ hasText: `all ${Number(recipients)} users` })
        .waitFor();
      await assertAccessible(page, `${device} mail sent`);
      if (device === 'desktop') await screenshot(page, `${kind}-admin-mail-sent`);
      await service.mailbox.waitFor((message) => mailTo(player.mail)(message) && message.subject === subject, 20_000);
    });
  }
});
