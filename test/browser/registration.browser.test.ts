// The console's dashboard and registration control in a real browser (Debian's Chromium), on a desktop and on a
// phone: the dashboard shows what is stored; the owner switches registration to invitations, an admin's invitation
// link is made and copied in the console, a visitor registers through it (the mail arrives at the SMTP server), the
// same link is then refused with a readable message, a withdrawn one too, and closed registration says so; every
// change is in the audit log; every page visited passes axe-core's check in both themes; no browser dialog opens.
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { accessibilityProblems } from '../support/accessibility.ts';
import { browserMissing, DESKTOP, logIn, openWatchedPage, PHONE, screenshot, servePagesToBrowser } from '../support/browser.ts';
import { describeEachDatabase } from '../support/databases.ts';
import { capeFile, skinFile } from '../support/fixtures.ts';
import { PUBLIC_URL, uniqueName, type TestService } from '../support/service.ts';
import { codeIn, mailTo } from '../support/smtp.ts';
import { until } from '../support/wait.ts';
import { REFUSALS } from '../../src/registration/service.ts';

const skipReason = browserMissing();
const GRAVIT_TOKEN = 'launchserver-shared-secret-0123';
const PASSWORD = 'correct horse battery';
const VIEWPORTS = [
  ['desktop', DESKTOP],
  ['phone', PHONE],
] as const;

describeEachDatabase('dashboard and registration control in a browser', (kind) => {
  let service: TestService;
  let browser: Browser;
  let origin: string;
  let close: (() => Promise<void>) | undefined;
  before(async () => {
    if (skipReason) return;
    ({ service, browser, origin, close } = await servePagesToBrowser(kind, GRAVIT_TOKEN));
  });
  after(() => close?.());

  const openPage = (viewport: { width: number; height: number }): Promise<Page> =>
    openWatchedPage(browser, origin, { viewport, context: { permissions: ['clipboard-read', 'clipboard-write'] } });
  /** The console as the owner (a fresh login through the page), on `viewport`, at `path`. */
  const openConsole = async (viewport: { width: number; height: number }, path = '/admin'): Promise<Page> => {
    const page = await openPage(viewport);
    await logIn(page, origin, 'Owner', 'owner password');
    await page.goto(`${origin}${path}`);
    return page;
  };
  const assertAccessible = async (page: Page, what: string) => {
    await page.waitForLoadState('networkidle');
    assert.deepEqual(await accessibilityProblems(page), [], `${what}, light`);
    await page.emulateMedia({ colorScheme: 'dark' });
    assert.deepEqual(await accessibilityProblems(page), [], `${what}, dark`);
    await page.emulateMedia({ colorScheme: 'light' });
  };
  const auditCount = async (action: string) =>
    (await service.db.selectFrom('audit_log').select('id').where('action', '=', action).execute()).length;
  /** The same page by the address the browser uses (links name PUBLIC_URL, another host). */
  const here = (link: string) => link.replace(PUBLIC_URL, origin);

  for (const [device, viewport] of VIEWPORTS) {
    it(
      `${device}: the dashboard shows accounts, textures, the mail queue and the latest activity`,
      { skip: skipReason ?? false },
      async () => {
        const ownerToken = await service.ownerToken();
        const player = await service.registerPlayer();
        await service.registerPlayer();
        assert.equal((await service.upload('/api/home/skins', player.token, { name: 'Plain' }, skinFile('classic'))).status, 200);
        assert.equal((await service.upload('/api/admin/user/cape/upload', ownerToken, { name: 'Founders' }, capeFile('cape'))).status, 200);
        // One mail waits for its next attempt an hour from now; the rest of the queue is sent meanwhile.
        const now = Date.now();
        const waiting = { recipient: 'later@example.org', subject: 'Hello', text_body: 'Hello', html_body: '<p>Hello</p>', attempts: 1 };
        await service.db.deleteFrom('mail_outbox').where('recipient', '=', waiting.recipient).execute();
        await service.db
          .insertInto('mail_outbox')
          .values({ ...waiting, created_at: now, next_attempt_at: now + 3_600_000 })
          .execute();
        let figures: any;
        await until(async () => {
          figures = (await service.call('GET', '/api/admin/dashboard', { token: ownerToken })).body.data;
          return figures.mail.queued === 1;
        }, 'the registration mails to leave the queue');
        const users = await service.db.selectFrom('users').select('id').execute();
        assert.equal(figures.accounts.total, users.length);

        const page = await openConsole(viewport);
        const accounts = page.getByRole('region', { name: 'Accounts' });
        await accounts.locator('.figure').getByText(String(users.length), { exact: true }).waitFor();
        assert.match(await accounts.innerText(), new RegExp(`New this week\\s+${users.length}`));
        const skins = page.getByRole('region', { name: 'Skins' });
        assert.equal(await skins.locator('.figure').innerText(), String(figures.skins.count));
        assert.match(await skins.innerText(), /\d+(\.\d)? (bytes|kB) of pictures stored/);
        assert.equal(await page.getByRole('region', { name: 'Capes' }).locator('.figure').innerText(), String(figures.capes.count));
        const mail = page.getByRole('region', { name: 'Mail' });
        assert.equal(await mail.locator('.figure').innerText(), '1');
        await mail.getByText('mail waiting to be sent').waitFor();
        await page.getByRole('region', { name: 'Registration' }).getByText('Open', { exact: true }).waitFor();
        const activity = page.getByRole('region', { name: 'Latest activity' });
        const entries = await service.db.selectFrom('audit_log').select('id').execute();
        assert.equal(await activity.getByRole('listitem').count(), Math.min(10, entries.length));
        await activity.getByText('uploaded a cape').waitFor();
        await assertAccessible(page, `${device} dashboard`);
        await screenshot(page, `${kind}-admin-dashboard-${device}`);
        if (kind === 'sqlite' && device === 'desktop') {
          const images = join(import.meta.dirname, '../../docs/images');
          mkdirSync(images, { recursive: true });
          copyFileSync(
            join(import.meta.dirname, `../../test-output/screenshots/${kind}-admin-dashboard-${device}.png`),
            join(images, 'web-admin-dashboard.png'),
          );
        }
        await service.db.deleteFrom('mail_outbox').where('recipient', '=', waiting.recipient).execute();
      },
    );

    it(
      `${device}: by invitation, a link made in the console registers one visitor, then is refused; withdrawn and closed say so`,
      { skip: skipReason ?? false },
      async () => {
        const audited = {
          mode: await auditCount('registration.mode'),
          create: await auditCount('invite.create'),
          use: await auditCount('invite.use'),
          revoke: await auditCount('invite.revoke'),
        };
        // Whatever happens, the next test starts with registration following its setting (open).
        after(
          async () =>
            void (await service.call('PUT', '/api/admin/registration', { token: await service.ownerToken(), body: { mode: null } })),
        );
        const owner = await openConsole(viewport, '/admin?tab=registration');
        const modeCard = owner.getByRole('region', { name: 'Who may create an account' });
        await modeCard.getByText('Now: Open.').waitFor();
        await modeCard.getByLabel('By invitation').check();
        await modeCard.getByRole('button', { name: 'Save for every server' }).click();
        await modeCard.getByText('Registration is now by invitation.').waitFor();
        assert.equal((await service.call('GET', '/api/auth/registration')).body.data.mode, 'invite');

        // Without a link, the register page says it is by invitation only.
        const stranger = await openPage(viewport);
        await stranger.goto(`${origin}/register`);
        await stranger.getByRole('heading', { name: 'Registration is by invitation only' }).waitFor();
        assert.equal(await stranger.getByLabel('Mail address').count(), 0, 'no form');
        await assertAccessible(stranger, `${device} register, by invitation only`);

        // The admin's invitation, copied with the button.
        const note = `Friend on the ${device}`;
        const invite = owner.getByRole('region', { name: 'Invite someone' });
        await invite.getByLabel('Who it is for (optional)').fill(note);
        await invite.getByLabel('Valid for').selectOption({ label: '30 days' });
        await invite.getByRole('button', { name: 'Create invitation link' }).click();
        const linkField = invite.getByLabel('Invitation link', { exact: true });
        await linkField.waitFor();
        const link = await linkField.inputValue();
        assert.match(link, new RegExp(`^${PUBLIC_URL}/register\\?invite=[A-Za-z0-9_-]{24}$`));
        await invite.getByRole('button', { name: 'Copy Invitation link' }).click();
        await invite.getByText('Copied').waitFor();
        assert.equal(await owner.evaluate(() => navigator.clipboard.readText()), link);
        const row = owner.getByRole('row').filter({ hasText: note });
        await row.getByText('Can be used until').waitFor();
        await assertAccessible(owner, `${device} registration section`);
        await screenshot(owner, `${kind}-admin-registration-${device}`);

        // A visitor registers through the link; the mail arrives.
        const visitor = await openPage(viewport);
        await visitor.goto(here(link));
        const mail = `${uniqueName('invited')}@example.org`;
        await visitor.getByLabel('Mail address').fill(mail);
        await assertAccessible(visitor, `${device} register with an invitation`);
        await visitor.getByLabel('Password', { exact: true }).fill(PASSWORD);
        await visitor.getByRole('button', { name: 'Register' }).click();
        await visitor.waitForURL(`${origin}/register/confirm`);
        const code = codeIn(await service.mailbox.waitFor(mailTo(mail)));
        // Confirmed in the tab that registered: logged in at once, on to step 3 (registration-flow.browser.test.ts).
        await visitor.goto(`${origin}/register/confirm?code=${code}`);
        await visitor.waitForURL(`${origin}/register/finish`);

        // The same link a second time: refused before anyone types, in words.
        const second = await openPage(viewport);
        await second.goto(here(link));
        await second.getByRole('heading', { name: 'This invitation cannot be used' }).waitFor();
        await second.getByText(REFUSALS.used).waitFor();
        assert.equal(await second.getByLabel('Mail address').count(), 0);
        await assertAccessible(second, `${device} register, used invitation`);

        await owner.reload();
        await owner.getByRole('row').filter({ hasText: note }).getByRole('link', { name: mail }).waitFor();

        // Another invitation, withdrawn after a cancelled first try.
        await invite.getByLabel('Who it is for (optional)').fill(`Withdrawn ${device}`);
        await invite.getByRole('button', { name: 'Create invitation link' }).click();
        const withdrawnLink = await invite.getByLabel('Invitation link', { exact: true }).inputValue();
        assert.notEqual(withdrawnLink, link);
        const withdrawnRow = owner.getByRole('row').filter({ hasText: `Withdrawn ${device}` });
        await withdrawnRow.getByRole('button', { name: 'Withdraw' }).click();
        await owner.getByRole('alertdialog').getByRole('button', { name: 'Cancel' }).click();
        await withdrawnRow.getByText('Can be used until').waitFor();
        await withdrawnRow.getByRole('button', { name: 'Withdraw' }).click();
        await owner.getByRole('alertdialog').getByRole('button', { name: 'Withdraw the invitation' }).click();
        await withdrawnRow.getByText(/^Withdrawn on/).waitFor();
        await second.goto(here(withdrawnLink));
        await second.getByText(REFUSALS.revoked).waitFor();

        // Closed: the register page says so, invitation or not.
        await modeCard.getByLabel('Closed').check();
        await modeCard.getByRole('button', { name: 'Save for every server' }).click();
        await modeCard.getByText('Registration is now closed.').waitFor();
        await stranger.goto(`${origin}/register`);
        await stranger.getByRole('heading', { name: 'Registration is closed' }).waitFor();
        await assertAccessible(stranger, `${device} register, closed`);
        await screenshot(stranger, `${kind}-register-closed-${device}`);

        // Back to the setting (open), audited too.
        await modeCard.getByRole('button', { name: 'Follow the server setting again' }).click();
        await modeCard.getByText('Registration follows the REGISTRATION setting again: open.').waitFor();
        assert.equal(await auditCount('registration.mode'), audited.mode + 3);
        assert.equal(await auditCount('invite.create'), audited.create + 2);
        assert.equal(await auditCount('invite.use'), audited.use + 1);
        assert.equal(await auditCount('invite.revoke'), audited.revoke + 1);
        const used = await service.db
          .selectFrom('invites')
          .innerJoin('users', 'users.id', 'invites.used_by')
          .select('users.mail')
          .where('invites.note', '=', note)
          .executeTakeFirstOrThrow();
        assert.equal(used.mail, mail);

        // The dashboard's latest activity tells the story in words.
        await owner.goto(`${origin}/admin`);
        const activity = owner.getByRole('region', { name: 'Latest activity' });
        await activity.getByText('changed who may register').first().waitFor();
        await activity.getByText('withdrew an invitation').waitFor();
      },
    );
  }
});
