// Contract section 20, the premium link by a challenge skin: a player proves an account at Mojang (an in-process
// stand-in speaking its shapes, with its own key) or at a second instance of this service, by wearing the challenge
// skin there; PREMIUM_RECLAIM, PREMIUM_IMPORT (joining with an existing account, then logging in with the real
// `yggdrasil` client), the official skin imported once, and MOJANG_FALLBACK=skins lending the official skin to the
// linked profile, signed with our key. On SQLite and PostgreSQL.
import assert from 'node:assert/strict';
import { createPublicKey, randomUUID, verify, type KeyObject } from 'node:crypto';
import { after, before, it } from 'node:test';
import yggdrasil from 'yggdrasil';
import { encodePng } from '../rendering/png.ts';
import { decodePng } from '../rendering/png-decode.ts';
import { canonicalTexture } from '../textures/canonical.ts';
import { ManualClock } from '../../test/support/clock.ts';
import { describeEachDatabase } from '../../test/support/databases.ts';
import { fixture, skinFile } from '../../test/support/fixtures.ts';
import { startMojangStandIn, type MojangStandIn } from '../../test/support/mojang-session.ts';
import { freePort } from '../../test/support/net.ts';
import { OWNER, randomAddress, startService, uniqueName, type TestService } from '../../test/support/service.ts';
import { until } from '../../test/support/wait.ts';
import { codeIn, mailTo } from '../../test/support/smtp.ts';
import { DEFAULT_PROFILE_SETTINGS } from '../settings.ts';
import { PREMIUM_CHALLENGES_PER_ACCOUNT, PREMIUM_VERIFIES_PER_ACCOUNT } from './limits.ts';
import { STRIP } from './challenge-skin.ts';
import { CHALLENGE_TTL_MS } from './premium.ts';

const API = '/api/yggdrasil';
const CACHE_TTL_SECONDS = 600;
const dashed = (bare: string) => bare.replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5');
const bare = () => randomUUID().replace(/-/g, '');
const pngOf = (dataUrl: string) => Buffer.from(dataUrl.replace(/^data:image\/png;base64,/, ''), 'base64');

/** The challenge skin with one pixel of its strip changed, as a player who edited it would wear it. */
function withWrongPixel(png: Buffer): Buffer {
  const image = decodePng(png);
  const at = (STRIP.y * image.width + STRIP.x + 3) * 4;
  image.data[at] = (image.data[at]! + 1) % 256;
  return encodePng(image);
}

const signedBy = (property: { value: string; signature?: string }, key: KeyObject) =>
  property.signature !== undefined && verify('sha1', Buffer.from(property.value), key, Buffer.from(property.signature, 'base64'));

describeEachDatabase('premium links by a challenge skin', (kind) => {
  let mojang: MojangStandIn;
  let other: TestService;
  let otherName: string;
  let service: TestService;
  let ourKey: KeyObject;
  const clock = new ManualClock();

  before(async () => {
    mojang = await startMojangStandIn({ texturesHost: '127.0.0.1' });
    // The second instance serves its textures at its own address, which its metadata lists in skinDomains.
    const otherPort = await freePort();
    other = await startService(kind, { settings: { publicUrl: `http://127.0.0.1:${otherPort}`, serverName: 'Other skins' } });
    await other.app.listen({ port: otherPort, host: '127.0.0.1' });
    otherName = 'Other skins';
    service = await startService(kind, {
      clock,
      // Challenges live an hour; the web sessions of the test outlive the clock's jumps past it.
      app: { premiumRefreshIntervalMs: 50 },
      settings: {
        owner: OWNER,
        jwtTtlSeconds: 30 * 24 * 3600,
        profiles: { ...DEFAULT_PROFILE_SETTINGS, maxProfiles: 3 },
        fallback: {
          mode: 'skins',
          cacheTtlSeconds: CACHE_TTL_SECONDS,
          premiumReclaim: true,
          premiumImport: true,
          sources: [
            { kind: 'mojang', name: 'Mojang', sessionUrl: mojang.url, apiUrl: mojang.url, texturesHost: '127.0.0.1' },
            { kind: 'authlib-injector', name: null, root: `http://127.0.0.1:${otherPort}${API}/` },
          ],
        },
      },
    });
    ourKey = createPublicKey((await service.call('GET', `${API}/`)).body.signaturePublickey);
  });
  after(async () => {
    await service?.close();
    await other?.close();
    await mojang?.close();
  });

  /** An official player at the Mojang stand-in. */
  const official = (name = uniqueName('m').slice(0, 16)) => {
    const player = { id: bare(), name, skin: undefined as Buffer | undefined };
    mojang.players.push(player);
    return player;
  };
  const challenge = (token: string, name: string, source?: string) =>
    service.call('POST', '/api/home/premium/challenge', { token, body: { name, ...(source && { source }) } });
  const verifyLink = (token: string, body: { name: string; token: string; source?: string }) =>
    service.call('POST', '/api/home/premium/verify', { token, body });
  const home = async (token: string) => (await service.call('GET', '/api/home', { token })).body.data;
  /** A new player here who has linked a new official player at the stand-in, through the challenge skin. */
  const linkedPlayer = async () => {
    const player = await service.registerPlayer();
    const steve = official();
    const { token, skin } = (await challenge(player.token, steve.name)).body.data;
    steve.skin = pngOf(skin);
    assert.equal((await verifyLink(player.token, { name: steve.name, token })).status, 200);
    return { player, steve };
  };

  it('links a Mojang account whose player wears the challenge skin, and refuses a wrong pixel, another name, an expired token', async () => {
    const player = await service.registerPlayer();
    const steve = official();
    const asked = await challenge(player.token, steve.name);
    assert.equal(asked.status, 200, asked.body.msg);
    const { token, skin } = asked.body.data;
    const png = pngOf(skin);
    assert.deepEqual([decodePng(png).width, decodePng(png).height], [64, 64]);

    // Not worn yet: the account wears another skin.
    steve.skin = fixture('skins/classic.png');
    let verified = await verifyLink(player.token, { name: steve.name, token });
    assert.equal(verified.status, 400);
    assert.match(verified.body.msg, /does not wear the challenge skin/);
    // One pixel of the strip wrong.
    steve.skin = withWrongPixel(png);
    assert.equal((await verifyLink(player.token, { name: steve.name, token })).status, 400);
    // The token of another name.
    const nobody = uniqueName('n').slice(0, 16);
    verified = await verifyLink(player.token, { name: nobody, token });
    assert.equal(verified.status, 400);
    assert.match(verified.body.msg, /another name/);
    // A made-up token.
    assert.match((await verifyLink(player.token, { name: steve.name, token: `${token}x` })).body.msg, /not one this service gave/);
    // No such account at Mojang.
    const unknown = (await challenge(player.token, nobody)).body.data.token;
    assert.equal((await verifyLink(player.token, { name: nobody, token: unknown })).status, 404);
    assert.equal((await home(player.token)).Premium, null, 'nothing linked by the failures');

    // Worn: linked, shown on the profile.
    steve.skin = png;
    const requestsBefore = mojang.requests.length;
    verified = await verifyLink(player.token, { name: steve.name.toUpperCase(), token });
    assert.equal(verified.status, 200, verified.body.msg);
    assert.deepEqual(verified.body.data, { uuid: dashed(steve.id), name: steve.name, source: 'Mojang' });
    assert.ok(mojang.requests.slice(requestsBefore).includes(`/session/minecraft/profile/${steve.id}`), 'read uncached');
    const detail = await home(player.token);
    assert.deepEqual(detail.Premium, { uuid: dashed(steve.id), name: steve.name, source: 'Mojang' });
    assert.deepEqual(detail.PremiumLinks, [detail.Premium]);

    // One account per source: a second Mojang account is refused; the same official account for another player too.
    const alex = official();
    const second = (await challenge(player.token, alex.name)).body.data;
    alex.skin = pngOf(second.skin);
    assert.equal((await verifyLink(player.token, { name: alex.name, token: second.token })).status, 409);
    const rival = await service.registerPlayer();
    const theirs = (await challenge(rival.token, steve.name)).body.data;
    steve.skin = pngOf(theirs.skin);
    const refused = await verifyLink(rival.token, { name: steve.name, token: theirs.token });
    assert.equal(refused.status, 409);
    assert.match(refused.body.msg, /linked to another account/);

    // An expired challenge.
    const late = (await challenge(rival.token, alex.name)).body.data;
    alex.skin = pngOf(late.skin);
    clock.advance(CHALLENGE_TTL_MS + 1);
    const expired = await verifyLink(rival.token, { name: alex.name, token: late.token });
    assert.equal(expired.status, 400);
    assert.match(expired.body.msg, /expired/);

    // Unlinked: the link goes, and is audited with the link.
    assert.equal((await service.call('DELETE', '/api/home/premium', { token: player.token })).status, 200);
    assert.equal((await home(player.token)).Premium, null);
    assert.equal((await service.call('DELETE', '/api/home/premium', { token: player.token })).status, 404);
    const actions = await service.db.selectFrom('audit_log').select('action').where('action', 'like', 'premium.%').execute();
    assert.deepEqual(actions.map((row) => row.action).sort(), ['premium.link', 'premium.unlink']);
  });

  it('links an account of another authlib-injector server, whose player wears the challenge skin there', async () => {
    const player = await service.registerPlayer();
    const there = await other.registerPlayer();
    const listed = await service.call('GET', '/api/home/premium', { token: player.token });
    assert.deepEqual(listed.body.data, { links: [], sources: ['Mojang', otherName], import: true });
    const asked = await challenge(player.token, there.username, otherName);
    assert.equal(asked.status, 200, asked.body.msg);
    const uploaded = await other.upload('/api/home/skins', there.token, {}, skinFile('challenge', pngOf(asked.body.data.skin)));
    assert.equal(uploaded.status, 200, uploaded.body.msg);
    const verified = await verifyLink(player.token, { name: there.username, token: asked.body.data.token, source: otherName });
    assert.equal(verified.status, 200, verified.body.msg);
    assert.equal(verified.body.data.source, otherName);
    assert.deepEqual(
      (await home(player.token)).PremiumLinks.map((link: { source: string }) => link.source),
      [otherName],
    );
    assert.equal((await challenge(player.token, there.username, 'Nowhere')).status, 400);
  });

  it('lends the official skin to the linked profile (MOJANG_FALLBACK=skins), signed with our key, and imports it once', async () => {
    const { player, steve } = await linkedPlayer();
    // The player puts their own skin back at Mojang; a MOJANG_CACHE_TTL later the service has read it.
    steve.skin = fixture('skins/slim.png');
    const ownSkin = await canonicalTexture(steve.skin, 'skin', 1024);
    clock.advance(CACHE_TTL_SECONDS * 1000 + 1);
    const uuid = (await home(player.token)).Uuid as string;
    const profileUrl = `${API}/sessionserver/session/minecraft/profile/${uuid.replace(/-/g, '')}?unsigned=false`;
    const texturesOf = async () => {
      const profile = (await service.call('GET', profileUrl)).body;
      const property = profile.properties.find((candidate: { name: string }) => candidate.name === 'textures');
      return { property, value: JSON.parse(Buffer.from(property.value, 'base64').toString()) };
    };
    await until(async () => (await texturesOf()).value.textures.SKIN?.url?.endsWith(ownSkin.digest), 'the official skin lent');
    const { property, value } = await texturesOf();
    assert.ok(signedBy(property, ourKey), 'signed with our key');
    const served = await service.call('GET', new URL(value.textures.SKIN.url).pathname);
    assert.equal(served.status, 200);
    assert.ok(served.raw.equals(ownSkin.png));

    // Once, into the wardrobe: then the profile wears its own here.
    const imported = await service.call('POST', '/api/home/skins/import-premium', { token: player.token, body: {} });
    assert.equal(imported.status, 200, imported.body.msg);
    assert.equal(imported.body.data.name, 'From Mojang');
    assert.deepEqual(
      (await home(player.token)).Skins.map((entry: { name: string }) => entry.name),
      ['From Mojang'],
    );
  });

  it('passes a profile holding the official name to the player who proves the account (PREMIUM_RECLAIM), mailing its owner', async () => {
    const holder = await service.registerPlayer();
    const name = uniqueName('r').slice(0, 16);
    const made = await service.call('POST', '/api/home/profiles', { token: holder.token, body: { name } });
    assert.equal(made.status, 201, made.body.msg);
    const steve = official(name);
    const claimant = await service.registerPlayer();
    const { token, skin } = (await challenge(claimant.token, name)).body.data;
    steve.skin = pngOf(skin);
    assert.equal((await verifyLink(claimant.token, { name, token })).status, 200);
    const profileNames = async (playerToken: string) =>
      (await home(playerToken)).Profiles.map((profile: { Username: string }) => profile.Username).sort();
    assert.deepEqual(await profileNames(claimant.token), [claimant.username, name].sort());
    assert.deepEqual(await profileNames(holder.token), [holder.username]);
    const mail = await service.mailbox.waitFor((sent) => mailTo(holder.mail)(sent) && sent.subject === `Your profile ${name}`);
    assert.match(mail.text ?? '', new RegExp(`your profile ${name} now belongs to their account`));
  });

  it('joins with an existing account (PREMIUM_IMPORT): the first profile has its name and UUID, and the launcher logs in with it', async () => {
    const steve = official();
    const mail = `${uniqueName('i')}@example.org`;
    const password = 'correct horse battery';
    const ip = randomAddress();
    assert.equal((await service.call('POST', '/api/auth/register', { body: { mail, password }, ip })).status, 200);
    const code = codeIn(await service.mailbox.waitFor(mailTo(mail)));
    assert.equal((await service.call('POST', '/api/auth/confirm', { body: { code }, ip })).status, 200);
    const jwt = (await service.call('POST', '/api/auth/login', { body: { username: mail, password }, ip })).body.data.jwt as string;
    const asked = await challenge(jwt, steve.name);
    assert.equal(asked.status, 200, asked.body.msg);
    // The check comes first: a skin not worn finishes nothing.
    const early = await service.call('POST', '/api/home/registerfinish', {
      token: jwt,
      body: { premium: { name: steve.name, token: asked.body.data.token } },
    });
    assert.equal(early.status, 400);
    steve.skin = pngOf(asked.body.data.skin);
    const finished = await service.call('POST', '/api/home/registerfinish', {
      token: jwt,
      body: { premium: { name: steve.name, token: asked.body.data.token } },
    });
    assert.equal(finished.status, 200, finished.body.msg);
    const detail = await home(jwt);
    assert.deepEqual([detail.Username, detail.Uuid], [steve.name, dashed(steve.id)]);
    assert.deepEqual(detail.Premium, { uuid: dashed(steve.id), name: steve.name, source: 'Mojang' });

    await service.app.listen({ port: 0, host: '127.0.0.1' });
    const root = `http://127.0.0.1:${(service.app.server.address() as { port: number }).port}${API}`;
    const login = await yggdrasil({ host: `${root}/authserver` }).auth({ user: steve.name, pass: password });
    assert.deepEqual(login.selectedProfile, { id: steve.id, name: steve.name });

    // A second registration may not take the same official account.
    const again = await service.registerPlayer();
    const theirs = (await challenge(again.token, steve.name)).body.data;
    steve.skin = pngOf(theirs.skin);
    assert.equal((await verifyLink(again.token, { name: steve.name, token: theirs.token })).status, 409);
  });

  it("limits challenges and checks per account, counted before the source is asked, in the API's error shape", async () => {
    const player = await service.registerPlayer();
    const steve = official();
    let last = await challenge(player.token, steve.name);
    for (let asked = 1; asked < PREMIUM_CHALLENGES_PER_ACCOUNT.limit; asked += 1) last = await challenge(player.token, steve.name);
    assert.equal(last.status, 200, last.body.msg);
    const refusedChallenge = await challenge(player.token, steve.name);
    assert.equal(refusedChallenge.status, 429);
    assert.equal(refusedChallenge.body.error, true);
    assert.match(refusedChallenge.body.msg, /Too many challenge skins asked for by your account; try again in 15 minutes/);
    assert.ok(Number(refusedChallenge.headers['retry-after']) > 0);

    // The checks: a skin not worn is a 400 and still counts; the next past the limit is refused before Mojang is asked.
    const { token } = last.body.data;
    for (let checked = 0; checked < PREMIUM_VERIFIES_PER_ACCOUNT.limit; checked += 1) {
      assert.equal((await verifyLink(player.token, { name: steve.name, token })).status, 400);
    }
    steve.skin = pngOf(last.body.data.skin);
    const requestsBefore = mojang.requests.length;
    const refusedCheck = await verifyLink(player.token, { name: steve.name, token });
    assert.equal(refusedCheck.status, 429);
    assert.match(refusedCheck.body.msg, /Too many official account checks by your account/);
    assert.equal(mojang.requests.length, requestsBefore, 'Mojang not asked');
    // Another account is not limited by this one's checks.
    const neighbour = await service.registerPlayer();
    const theirs = (await challenge(neighbour.token, steve.name)).body.data;
    steve.skin = pngOf(theirs.skin);
    assert.equal((await verifyLink(neighbour.token, { name: steve.name, token: theirs.token })).status, 200);
    // The window ends: the first account is checked again (a 400: the account now wears the neighbour's challenge).
    clock.advance(PREMIUM_VERIFIES_PER_ACCOUNT.windowMs + 1);
    assert.equal((await verifyLink(player.token, { name: steve.name, token })).status, 400);
  });

  it("shows a player's linked accounts to admins, and lets an admin above the player's level unlink one", async () => {
    const { player, steve } = await linkedPlayer();
    const ownerToken = await service.ownerToken();
    const admin = await service.registerPlayer();
    const promoted = await service.call('PATCH', `/api/admin/user/${admin.username}`, { token: ownerToken, body: { perms: 2 } });
    assert.equal(promoted.status, 200, promoted.body.msg);

    const shown = await service.call('GET', `/api/admin/user/${player.username}`, { token: admin.token });
    assert.deepEqual(shown.body.data.PremiumLinks, [{ uuid: dashed(steve.id), name: steve.name, source: 'Mojang' }]);
    // Rights: not a player's, nor an admin's for another admin.
    const unlinkOf = (identifier: string, as: string) => service.call('DELETE', `/api/admin/user/${identifier}/premium`, { token: as });
    assert.equal((await unlinkOf(player.username, player.token)).status, 403);
    const peer = await unlinkOf(admin.username, admin.token);
    assert.equal(peer.status, 403);
    const ownersPeer = await service.registerPlayer();
    await service.call('PATCH', `/api/admin/user/${ownersPeer.username}`, { token: ownerToken, body: { perms: 2 } });
    const refused = await unlinkOf(ownersPeer.username, admin.token);
    assert.equal(refused.status, 403);
    assert.match(refused.body.msg, /only of players below your own level/);
    assert.equal(
      (await service.call('DELETE', `/api/admin/user/${player.username}/premium?source=Ely`, { token: admin.token })).status,
      400,
    );

    const unlinked = await unlinkOf(player.username, admin.token);
    assert.equal(unlinked.status, 200, unlinked.body.msg);
    assert.equal(unlinked.body.msg, "The player's official account is unlinked");
    assert.equal((await home(player.token)).Premium, null);
    assert.equal((await unlinkOf(player.username, admin.token)).status, 404);
    const audited = await service.db
      .selectFrom('audit_log')
      .select(['iss', 'details'])
      .where('action', '=', 'premium.unlink')
      .where('details', 'like', `%${steve.name}%`)
      .execute();
    assert.deepEqual(
      audited.map((row) => [row.iss, JSON.parse(row.details!).by]),
      [[admin.username, 'admin']],
    );
  });
});
