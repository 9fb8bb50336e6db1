// Several game profiles per account (contract section 16) in a real browser (Debian's Chromium), on a desktop in the
// light theme and on a phone in the dark one: the profile page adds a second profile, renames it in place, gives it a
// skin (its head shows that skin), says the API's refusals (a taken name, a name against the rule, a wrong password)
// and deletes it after the password; at the account's limit the add form goes, and with one profile allowed the
// section only says so. The console's user editor lists a user's profiles, adds, renames, moves and deletes one and
// sets the account's own limit. Every state checked passes axe-core's check in both themes.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { Browser, Locator, Page } from 'playwright-core';
import { DEFAULT_PROFILE_SETTINGS } from '../../src/settings.ts';
import { accessibilityProblems } from '../support/accessibility.ts';
import {
  browserMissing,
  DESKTOP,
  logIn,
  logInWithToken,
  openWatchedPage,
  PHONE,
  screenshot,
  servePagesToBrowser,
} from '../support/browser.ts';
import { describeEachDatabase } from '../support/databases.ts';
import { skinFile } from '../support/fixtures.ts';
import { OWNER, uniqueName, type TestService } from '../support/service.ts';

const skipReason = browserMissing();
const GRAVIT_TOKEN = 'launchserver-shared-secret-0123';
const MAX_PROFILES = 3;
const THEMES = ['light', 'dark'] as const;
/** The page background (--paper) of each theme, as getComputedStyle gives it. */
const PAPER = { light: 'rgb(246, 247, 249)', dark: 'rgb(17, 20, 25)' };
const RUNS = [
  { device: 'desktop', viewport: DESKTOP, theme: 'light' },
  { device: 'phone', viewport: PHONE, theme: 'dark' },
] as const;

interface ProfileRecord {
  uuid: string;
  name: string;
  primary: boolean;
  selected_skin: string | null;
  selected_cape: string | null;
}

describeEachDatabase('game profiles in a browser', (kind) => {
  let service: TestService;
  let browser: Browser;
  let origin: string;
  let close: (() => Promise<void>) | undefined;
  before(async () => {
    if (skipReason) return;
    ({ service, browser, origin, close } = await servePagesToBrowser(kind, GRAVIT_TOKEN, undefined, {
      profiles: { ...DEFAULT_PROFILE_SETTINGS, maxProfiles: MAX_PROFILES },
    }));
  });
  after(() => close?.());

  /** A page in the `theme` (as the system's choice); reduced motion keeps the 3D preview still. */
  const openPage = (viewport: { width: number; height: number }, theme: 'light' | 'dark'): Promise<Page> =>
    openWatchedPage(browser, origin, { viewport, context: { reducedMotion: 'reduce', colorScheme: theme } });
  const paper = (page: Page) => page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);

  /** axe-core's serious and critical findings in each theme, then back to `theme`. */
  const assertAccessible = async (page: Page, what: string, theme: 'light' | 'dark') => {
    await page.waitForLoadState('networkidle');
    for (const each of THEMES) {
      await page.emulateMedia({ colorScheme: each });
      assert.equal(await paper(page), PAPER[each], `${what}: ${each} theme drawn`);
      assert.deepEqual(await accessibilityProblems(page), [], `${what} in the ${each} theme`);
    }
    await page.emulateMedia({ colorScheme: theme });
  };

  const profilesOf = async (token: string): Promise<ProfileRecord[]> => {
    const reply = await service.call('GET', '/api/home/profiles', { token });
    assert.equal(reply.status, 200);
    return reply.body.data;
  };
  const idOf = async (username: string) =>
    (await service.db.selectFrom('users').select('id').where('username', '=', username).executeTakeFirstOrThrow()).id;

  /** Waits until the image has loaded a picture from an address containing `part`. */
  const imageLoaded = async (image: Locator, part: string) => {
    const handle = await image.elementHandle();
    // No named functions in here: tsx would wrap them in a helper the page does not have.
    await image.page().waitForFunction(
      ([element, wanted]) => {
        const img = element as HTMLImageElement;
        return img.src.includes(wanted as string) && img.complete && img.naturalWidth > 0;
      },
      [handle, part] as const,
      { timeout: 5000 },
    );
  };

  for (const { device, viewport, theme } of RUNS) {
    it(
      `${device}, ${theme}: adds a second profile, renames it, dresses it, refuses a taken name and deletes it after the password`,
      { skip: skipReason ?? false },
      async () => {
        const player = await service.registerPlayer();
        const skin = (await service.upload('/api/home/skins', player.token, { name: 'Plain' }, skinFile('classic'))).body.data;
        const page = await openPage(viewport, theme);
        await logIn(page, origin, player.username, player.password);
        const part = page.getByRole('region', { name: 'Game profiles' });
        await part.getByText(`You have 1 profile; you may have up to ${MAX_PROFILES}.`).waitFor();
        const primary = part.getByRole('listitem', { name: `Profile ${player.username}` });
        await primary.getByText('primary (your username)').waitFor();
        assert.equal(await primary.getByRole('button', { name: /^Delete/ }).count(), 0, 'the primary profile has no Delete');
        await assertAccessible(page, `${device} profiles`, theme);

        // A name against the rule, on the field; then a name taken in another letter case, in the API's words.
        const nameField = part.getByLabel('Name of the new profile');
        await nameField.fill('no spaces here');
        await part.getByRole('button', { name: 'Add profile' }).click();
        await part.getByText('A player name has 3 to 16 characters').waitFor();
        assert.equal(await nameField.getAttribute('aria-invalid'), 'true');
        await nameField.fill(OWNER.username.toLowerCase());
        await part.getByRole('button', { name: 'Add profile' }).click();
        await part.getByRole('alert').getByText('That name is taken (names are compared without regard to letter case)').waitFor();
        assert.equal((await profilesOf(player.token)).length, 1, 'nothing added');

        // A second profile.
        const first = uniqueName('alt');
        await nameField.fill(first);
        await part.getByRole('button', { name: 'Add profile' }).click();
        await part.getByText(`The profile ${first} is added.`).waitFor();
        await part.getByText(`You have 2 profiles; you may have up to ${MAX_PROFILES}.`).waitFor();
        assert.equal(await nameField.inputValue(), '', 'the form is emptied');

        // Renamed in place.
        const second = uniqueName('alt');
        await part.getByRole('button', { name: `Rename ${first}` }).click();
        await part.getByLabel(`New name for ${first}`).fill(second);
        await part.getByRole('button', { name: 'Save' }).click();
        const item = part.getByRole('listitem', { name: `Profile ${second}` });
        await item.waitFor();
        const [, added] = await profilesOf(player.token);
        assert.equal(added?.name, second);
        assert.equal(added?.primary, false);

        // Dressed from the wardrobe: the head shows that skin.
        const head = item.getByRole('img', { name: `Head of ${second}` });
        await imageLoaded(head, added!.uuid);
        await item.getByLabel(`Skin of ${second}`).selectOption({ label: 'Plain' });
        await item.getByText(`${second} now wears Plain.`).waitFor();
        await item.getByText('wears Plain', { exact: true }).waitFor();
        await imageLoaded(head, skin.uuid);
        assert.equal((await profilesOf(player.token))[1]?.selected_skin, skin.uuid);
        assert.equal((await profilesOf(player.token))[0]?.selected_skin, skin.uuid, 'the first skin dresses the primary profile');
        await assertAccessible(page, `${device} profiles with two`, theme);
        await screenshot(page, `${kind}-profiles-${device}-${theme}`, part);

        // Deleted after the password: a wrong one first, said on the field.
        await item.getByRole('button', { name: `Delete the profile ${second}` }).click();
        const confirmation = item.getByRole('alertdialog', { name: `Delete ${second} for good` });
        const password = confirmation.getByLabel('Your password');
        assert.equal(await password.evaluate((element) => element === document.activeElement), true, 'the password has the focus');
        await password.fill('not the password');
        await confirmation.getByRole('button', { name: `Delete ${second} for good` }).click();
        await confirmation.getByText('The password is wrong: type it again.').waitFor();
        assert.equal(await password.getAttribute('aria-invalid'), 'true');
        assert.equal((await profilesOf(player.token)).length, 2, 'nothing deleted');
        assert.equal(page.url(), `${origin}/home`, 'still logged in');
        await assertAccessible(page, `${device} profile deletion`, theme);
        await password.fill(player.password);
        await password.press('Enter');
        await part.getByText(`The profile ${second} is deleted.`).waitFor();
        await item.waitFor({ state: 'detached' });
        assert.deepEqual(
          (await profilesOf(player.token)).map((profile) => profile.name),
          [player.username],
        );
      },
    );
  }

  it('hides the add form at the limit, and with one profile allowed only says so', { skip: skipReason ?? false }, async () => {
    const player = await service.registerPlayer();
    for (let added = 1; added < MAX_PROFILES; added += 1) {
      const reply = await service.call('POST', '/api/home/profiles', { token: player.token, body: { name: uniqueName('alt') } });
      assert.equal(reply.status, 201);
    }
    const page = await openPage(DESKTOP, 'light');
    await logIn(page, origin, player.username, player.password);
    const part = page.getByRole('region', { name: 'Game profiles' });
    await part.getByText(`You have ${MAX_PROFILES} profiles, the most allowed (${MAX_PROFILES}): delete one to add another.`).waitFor();
    assert.equal(await part.getByRole('listitem').count(), MAX_PROFILES);
    assert.equal(await part.getByLabel('Name of the new profile').count(), 0, 'no add form at the limit');

    // One profile, one allowed (the account's own limit): the one profile, no add form and no skin choice.
    const lone = await service.registerPlayer();
    const owner = await service.ownerToken();
    assert.equal(
      (await service.call('PATCH', `/api/admin/user/${lone.username}`, { token: owner, body: { max_profiles: 1 } })).status,
      200,
    );
    const lonePage = await openPage(PHONE, 'dark');
    await logIn(lonePage, origin, lone.username, lone.password);
    const lonePart = lonePage.getByRole('region', { name: 'Game profiles' });
    await lonePart.getByText('Your account may have one game profile: this one.').waitFor();
    assert.equal(await lonePart.getByRole('listitem').count(), 1);
    assert.equal(await lonePart.getByLabel('Name of the new profile').count(), 0);
    assert.equal(await lonePart.getByLabel(`Skin of ${lone.username}`).count(), 0);
    await assertAccessible(lonePage, 'one profile allowed', 'dark');
  });

  for (const { device, viewport, theme } of RUNS) {
    it(
      `${device}, ${theme}: the console shows a user's profiles, adds, renames, moves and deletes one and sets the limit`,
      { skip: skipReason ?? false },
      async () => {
        const player = await service.registerPlayer();
        const other = await service.registerPlayer();
        const kept = uniqueName('alt');
        assert.equal((await service.call('POST', '/api/home/profiles', { token: player.token, body: { name: kept } })).status, 201);
        const page = await openPage(viewport, theme);
        await logInWithToken(page, origin, await service.ownerToken());
        await page.goto(`${origin}/admin?tab=users&user=${await idOf(player.username)}`);
        const editor = page.getByRole('dialog').getByRole('region', { name: `User ${player.username}` });
        const part = editor.getByRole('group', { name: 'Game profiles' });
        await part.getByText(`2 profiles; the limit in force is ${MAX_PROFILES}.`).waitFor();
        await part
          .getByRole('listitem', { name: `Profile ${player.username}` })
          .getByText("primary (the account's username)")
          .waitFor();
        await part.getByRole('listitem', { name: `Profile ${kept}` }).waitFor();
        await assertAccessible(page, `${device} console profiles`, theme);

        // The account's own limit; empty brings back the setting.
        const limit = part.getByLabel("The account's own profile limit");
        await limit.fill('5');
        await part.getByRole('button', { name: 'Save limit' }).click();
        await part.getByText('Saved: the limit in force is now 5.').waitFor();
        await part.getByText('2 profiles; the limit in force is 5.').waitFor();
        assert.equal((await service.call('GET', '/api/home', { token: player.token })).body.data.MaxProfiles, 5);
        await limit.fill('-2');
        await part.getByRole('button', { name: 'Save limit' }).click();
        await part.getByText('Type a whole number from -1 to 1000').waitFor();
        await limit.fill('');
        await part.getByRole('button', { name: 'Save limit' }).click();
        await part.getByText(`Saved: the limit in force is now ${MAX_PROFILES}.`).waitFor();
        assert.equal((await service.call('GET', '/api/home', { token: player.token })).body.data.MaxProfiles, MAX_PROFILES);

        // Added (a taken name first), renamed in place.
        const nameField = part.getByLabel('Name of a new profile');
        await nameField.fill(other.username.toUpperCase());
        await part.getByRole('button', { name: 'Add profile' }).click();
        await part.getByText('That name is taken').waitFor();
        const made = uniqueName('adm');
        await nameField.fill(made);
        await part.getByRole('button', { name: 'Add profile' }).click();
        await part.getByText(`The profile ${made} is added.`).waitFor();
        const renamed = uniqueName('adm');
        await part.getByRole('button', { name: `Rename ${made}` }).click();
        await part.getByLabel(`New name for ${made}`).fill(renamed);
        await part.getByRole('button', { name: 'Save', exact: true }).click();
        await part.getByRole('listitem', { name: `Profile ${renamed}` }).waitFor();
        assert.deepEqual(
          (await profilesOf(player.token)).map((profile) => profile.name),
          [player.username, kept, renamed],
        );

        // Moved to another account, typed by name.
        const moving = part.getByRole('listitem', { name: `Profile ${kept}` });
        await moving.getByRole('button', { name: `Move the profile ${kept} to another account` }).click();
        await moving.getByLabel(`Move ${kept} to the account of`).fill(other.username);
        await assertAccessible(page, `${device} console profile move`, theme);
        await moving.getByRole('button', { name: 'Move profile' }).click();
        await part.getByText(`The profile ${kept} now belongs to ${other.username}.`).waitFor();
        await moving.waitFor({ state: 'detached' });
        assert.deepEqual(
          (await profilesOf(other.token)).map((profile) => profile.name),
          [other.username, kept],
        );

        // Deleted after a confirmation; the primary profile offers neither.
        const primary = part.getByRole('listitem', { name: `Profile ${player.username}` });
        assert.equal(await primary.getByRole('button', { name: /^(Delete|Move)/ }).count(), 0);
        const doomed = part.getByRole('listitem', { name: `Profile ${renamed}` });
        await doomed.getByRole('button', { name: `Delete the profile ${renamed}` }).click();
        await doomed
          .getByRole('alertdialog')
          .getByRole('button', { name: `Delete the profile ${renamed}` })
          .click();
        await part.getByText(`The profile ${renamed} is deleted.`).waitFor();
        await part.getByText(`1 profile; the limit in force is ${MAX_PROFILES}.`).waitFor();
        assert.deepEqual(
          (await profilesOf(player.token)).map((profile) => profile.name),
          [player.username],
        );
        if (device === 'desktop') await screenshot(page, `${kind}-admin-profiles`, part);
      },
    );
  }
});
