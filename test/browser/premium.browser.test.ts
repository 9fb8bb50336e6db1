// The premium pages of contract section 20 in a real browser (Debian's Chromium), at 360 px and by keyboard, in both
// themes: the profile's "Official accounts" card (get the challenge skin, download it, wear it at the Mojang stand-in,
// verify, the link listed, unlink), registration's step 3 "I already play with this account" (the new profile gets
// the official name and UUID), and the admin console's user editor, which lists a player's linked accounts and unlinks
// one after a confirmation. The Mojang stand-in (test/support/mojang-session.ts) is reached by the service only.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import { after, before, it } from 'node:test';
import type { Browser, Locator, Page } from 'playwright-core';
import { assertAccessibleInBothThemes } from '../support/accessibility.ts';
import { browserMissing, launchBrowser, logIn, logInWithToken, openWatchedPage } from '../support/browser.ts';
import { describeEachDatabase } from '../support/databases.ts';
import { startMojangStandIn, type MojangStandIn, type StandInPlayer } from '../support/mojang-session.ts';
import { freePort } from '../support/net.ts';
import { OWNER, randomAddress, startService, uniqueName, type TestService } from '../support/service.ts';
import { codeIn, mailTo } from '../support/smtp.ts';

const skipReason = browserMissing();
const NARROW = { width: 360, height: 780 };
const PASSWORD = 'correct horse battery';

describeEachDatabase('premium pages in a browser', (kind) => {
  let service: TestService;
  let mojang: MojangStandIn;
  let browser: Browser;
  let origin: string;
  before(async () => {
    if (skipReason) return;
    mojang = await startMojangStandIn({ texturesHost: '127.0.0.1' });
    const port = await freePort();
    origin = `http://127.0.0.1:${port}`;
    service = await startService(kind, {
      settings: {
        owner: OWNER,
        port,
        publicUrl: origin,
        fallback: {
          mode: 'skins',
          cacheTtlSeconds: 600,
          premiumReclaim: false,
          premiumImport: true,
          sources: [{ kind: 'mojang', name: 'Mojang', sessionUrl: mojang.url, apiUrl: mojang.url, texturesHost: '127.0.0.1' }],
        },
      },
    });
    await service.app.listen({ port, host: '127.0.0.1' });
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await service?.close();
    await mojang?.close();
  });

  const official = (): StandInPlayer => {
    const player = { id: randomUUID().replace(/-/g, ''), name: uniqueName('m').slice(0, 16) };
    mojang.players.push(player);
    return player;
  };
  const assertAccessible = async (page: Page, what: string) => {
    await page.waitForLoadState('networkidle');
    await assertAccessibleInBothThemes(page, what);
    assert.ok(
      await page.evaluate((width) => document.documentElement.scrollWidth <= width, NARROW.width),
      `${what}: nothing wider than the screen`,
    );
  };
  /** Moves the keyboard's focus with Tab (at most `max` presses) until `target` has it. */
  const tabTo = async (page: Page, target: Locator, max = 25) => {
    for (let pressed = 0; pressed < max; pressed += 1) {
      if (await target.evaluate((element) => element === document.activeElement)) return;
      await page.keyboard.press('Tab');
    }
    assert.fail(`not reached by Tab: ${target}`);
  };
  /** The challenge skin, downloaded by Enter on its link, worn by `player` at the stand-in. */
  const downloadAndWear = async (page: Page, scope: Locator, player: StandInPlayer) => {
    const link = scope.getByRole('link', { name: 'Download the challenge skin' });
    await tabTo(page, link);
    const download = page.waitForEvent('download');
    await page.keyboard.press('Enter');
    const saved = await download;
    assert.equal(saved.suggestedFilename(), `challenge-${player.name}.png`);
    player.skin = await readFile((await saved.path())!);
  };

  it(
    "links an official account from the profile's card, lists it and unlinks it, by keyboard at 360 px",
    { skip: skipReason ?? false },
    async () => {
      const player = await service.registerPlayer();
      const steve = official();
      const page = await openWatchedPage(browser, origin, { viewport: NARROW });
      await logIn(page, origin, player.username, player.password);
      const card = page.getByRole('region', { name: 'Official accounts' });
      const name = card.getByLabel('Account name there');
      await name.waitFor();
      await assertAccessible(page, 'profile, nothing linked');

      await tabTo(page, name, 80);
      await page.keyboard.type(steve.name);
      await page.keyboard.press('Enter');
      await card.getByText(`Set it as the skin of ${steve.name} at Mojang`).waitFor();
      await assertAccessible(page, 'profile, the challenge made');
      await downloadAndWear(page, card, steve);
      await tabTo(page, card.getByRole('button', { name: 'Verify' }));
      await page.keyboard.press('Enter');
      await card.getByText(`${steve.name} at Mojang is linked.`).waitFor();
      const listed = card.getByRole('listitem').filter({ hasText: steve.name });
      await listed.getByText('at Mojang').waitFor();
      const detail = (await service.call('GET', '/api/home', { token: player.token })).body.data;
      assert.equal(detail.Premium?.name, steve.name);
      await assertAccessible(page, 'profile, linked');

      await tabTo(page, listed.getByRole('button', { name: 'Unlink' }), 150);
      await page.keyboard.press('Enter');
      await card.getByText(`${steve.name} at Mojang is unlinked.`).waitFor();
      await listed.waitFor({ state: 'detached' });
      assert.equal((await service.call('GET', '/api/home', { token: player.token })).body.data.Premium, null);
    },
  );

  it(
    "joins with an existing account at registration's step 3: the profile gets its name and UUID",
    { skip: skipReason ?? false },
    async () => {
      const steve = official();
      const mail = `${uniqueName('join')}@example.org`;
      const registered = await service.call('POST', '/api/auth/register', { body: { mail, password: PASSWORD }, ip: randomAddress() });
      assert.equal(registered.status, 200, registered.body.msg);
      const code = codeIn(await service.mailbox.waitFor(mailTo(mail)));
      assert.equal((await service.call('POST', '/api/auth/confirm', { body: { code }, ip: randomAddress() })).status, 200);

      const page = await openWatchedPage(browser, origin, { viewport: NARROW });
      await logIn(page, origin, mail, PASSWORD, { waitForHome: false });
      await page.waitForURL(`${origin}/register/finish`);
      const summary = page.getByText('I already play with this account');
      await tabTo(page, summary, 40);
      await page.keyboard.press('Enter');
      const join = page.locator('details', { has: summary });
      const name = join.getByLabel('Account name there');
      await name.waitFor();
      await assertAccessible(page, 'step 3, joining with an existing account');
      await tabTo(page, name);
      await page.keyboard.type(steve.name);
      await page.keyboard.press('Enter');
      await downloadAndWear(page, join, steve);
      await assertAccessible(page, 'step 3, the challenge made');
      await tabTo(page, join.getByRole('button', { name: 'Verify' }));
      await page.keyboard.press('Enter');
      await page.waitForURL(`${origin}/home`);
      await page.getByRole('heading', { name: steve.name }).waitFor();
      const token = (await page.evaluate(() => localStorage.getItem('skinservice.token')))!;
      const detail = (await service.call('GET', '/api/home', { token })).body.data;
      const dashed = steve.id.replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5');
      assert.deepEqual([detail.Username, detail.Uuid], [steve.name, dashed]);
    },
  );

  it(
    "shows a player's linked accounts in the admin console's user editor, where the owner unlinks one",
    { skip: skipReason ?? false },
    async () => {
      const player = await service.registerPlayer();
      const steve = official();
      const asked = await service.call('POST', '/api/home/premium/challenge', { token: player.token, body: { name: steve.name } });
      steve.skin = Buffer.from(asked.body.data.skin.replace(/^data:image\/png;base64,/, ''), 'base64');
      const linked = await service.call('POST', '/api/home/premium/verify', {
        token: player.token,
        body: { name: steve.name, token: asked.body.data.token },
      });
      assert.equal(linked.status, 200, linked.body.msg);

      const page = await openWatchedPage(browser, origin, { viewport: NARROW });
      await logInWithToken(page, origin, await service.ownerToken());
      await page.goto(`${origin}/admin?tab=users`);
      await page.getByRole('row').filter({ hasText: player.username }).getByRole('link', { name: player.username }).click();
      const group = page.getByRole('dialog').getByRole('group', { name: 'Official accounts' });
      await group.getByText(`${steve.name} at Mojang`).waitFor();
      await assertAccessible(page, 'user editor with an official account');
      await tabTo(page, group.getByRole('button', { name: 'Unlink' }), 120);
      await page.keyboard.press('Enter');
      const confirmation = group.getByRole('alertdialog');
      await confirmation.getByText(`Unlink ${steve.name} at Mojang from ${player.username}?`).waitFor();
      await confirmation.getByRole('button', { name: 'Unlink' }).click();
      await group.getByText(`${steve.name} at Mojang is unlinked from ${player.username}.`).waitFor();
      await group.getByText('No official account linked.').waitFor();
      assert.equal((await service.call('GET', '/api/home', { token: player.token })).body.data.Premium, null);
    },
  );
});
