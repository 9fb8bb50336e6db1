// The game's friends (contract section 25) as Minecraft 26.2+ sends them through authlib-injector and Loki
// (research wire-shapes-26 §5): Bearer game token, JSON with charset, UUIDs without dashes; the game's error names in
// Mojang's services shape; presence seen only by accepted friends for 10 minutes; the profile page's routes.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ManualClock } from '../../test/support/clock.ts';
import { describeEachDatabase } from '../../test/support/databases.ts';
import { randomAddress, startService, type TestService } from '../../test/support/service.ts';

const SERVICES = '/api/yggdrasil/minecraftservices';
/** What authlib sends with every services request (MinecraftClient): JSON with a charset. */
const GAME_HEADERS = { 'content-type': 'application/json; charset=utf-8', accept: 'application/json' };

describeEachDatabase('friends of the game (FRIENDS=true)', (kind) => {
  const clock = new ManualClock();
  let service: TestService;
  before(async () => {
    service = await startService(kind, { clock, settings: { friends: true } });
  });
  after(async () => service?.close());

  /** A registered player with a game token bound to their profile, as the launcher logs in. */
  const gamer = async () => {
    const registered = await service.registerPlayer();
    const login = await service.call('POST', '/api/yggdrasil/authserver/authenticate', {
      body: { username: registered.username, password: registered.password },
      ip: randomAddress(),
    });
    assert.equal(login.status, 200);
    return { ...registered, gameToken: login.body.accessToken as string, id: login.body.selectedProfile.id as string };
  };
  const game = (method: string, path: string, token: string, body?: unknown, headers: Record<string, string> = {}) =>
    service.call(method, `${SERVICES}/${path}`, {
      token,
      headers: { ...GAME_HEADERS, ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  const listOf = async (token: string, spelling = '') => {
    const reply = await game('GET', `${spelling}friends`, token);
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    return reply.body as {
      friends: { profileId: string; name: string }[];
      incomingRequests: { profileId: string; name: string }[];
      outgoingRequests: { profileId: string; name: string }[];
    };
  };
  const EMPTY = { friends: [], incomingRequests: [], outgoingRequests: [] };

  it('sends a request by name, the other accepts it by profileId: both lists follow, with ETag and 304', async () => {
    const steve = await gamer();
    const alex = await gamer();
    assert.deepEqual(await listOf(steve.gameToken), EMPTY);

    const first = await game('GET', 'friends', steve.gameToken);
    const etag = String(first.headers.etag);
    assert.match(etag, /^".+"$/);
    const unchanged = await game('GET', 'friends', steve.gameToken, undefined, { 'if-none-match': etag });
    assert.equal(unchanged.status, 304);
    assert.equal(unchanged.raw.length, 0, 'no body');

    const sent = await game('PUT', 'friends', steve.gameToken, { name: alex.username.toUpperCase(), updateType: 'ADD' });
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    assert.deepEqual(sent.body, { ...EMPTY, outgoingRequests: [{ profileId: alex.id, name: alex.username }] });
    assert.equal((await game('GET', 'friends', steve.gameToken, undefined, { 'if-none-match': etag })).status, 200, 'changed');
    assert.deepEqual(await listOf(alex.gameToken), { ...EMPTY, incomingRequests: [{ profileId: steve.id, name: steve.username }] });

    const accepted = await game('PUT', 'friends', alex.gameToken, { profileId: steve.id, updateType: 'ADD' });
    assert.equal(accepted.status, 200);
    assert.deepEqual(accepted.body, { ...EMPTY, friends: [{ profileId: steve.id, name: steve.username }] });
    assert.deepEqual(await listOf(steve.gameToken), { ...EMPTY, friends: [{ profileId: alex.id, name: alex.username }] });

    // Loki's spelling is the same list; a dashed UUID is read as well.
    assert.deepEqual(await listOf(steve.gameToken, 'player/'), await listOf(steve.gameToken));
    const removed = await game('PUT', 'player/friends', steve.gameToken, {
      profileId: alex.id.replace(/^(.{8})(.{4})(.{4})(.{4})/, '$1-$2-$3-$4-'),
      updateType: 'REMOVE',
    });
    assert.equal(removed.status, 200);
    assert.deepEqual(removed.body, EMPTY);
    assert.deepEqual(await listOf(alex.gameToken), EMPTY);
  });

  it('declines and takes back requests with REMOVE', async () => {
    const steve = await gamer();
    const alex = await gamer();
    await game('PUT', 'friends', steve.gameToken, { name: alex.username, updateType: 'ADD' });
    assert.equal((await game('PUT', 'friends', alex.gameToken, { profileId: steve.id, updateType: 'REMOVE' })).status, 200);
    assert.deepEqual(await listOf(steve.gameToken), EMPTY, 'declined');
    await game('PUT', 'friends', steve.gameToken, { name: alex.username, updateType: 'ADD' });
    assert.equal((await game('PUT', 'friends', steve.gameToken, { profileId: alex.id, updateType: 'REMOVE' })).status, 200);
    assert.deepEqual(await listOf(alex.gameToken), EMPTY, 'taken back');
  });

  it("refuses in Mojang's shape with the game's names, changing nothing: oneself, unknown names and ids, twice, no relation", async () => {
    const steve = await gamer();
    const alex = await gamer();
    await game('PUT', 'friends', steve.gameToken, { name: alex.username, updateType: 'ADD' });
    const before = await listOf(steve.gameToken);
    const refusals: [unknown, number, string][] = [
      [{ name: steve.username, updateType: 'ADD' }, 400, 'CANNOT_ADD_SELF'],
      [{ profileId: steve.id, updateType: 'ADD' }, 400, 'CANNOT_ADD_SELF'],
      [{ name: 'NobodyHasThisName', updateType: 'ADD' }, 400, 'UNKNOWN_PROFILE'],
      [{ profileId: '00000000000040008000000000000000', updateType: 'ADD' }, 400, 'UNKNOWN_PROFILE'],
      [{ profileId: 'not-a-uuid', updateType: 'ADD' }, 400, 'UNKNOWN_PROFILE'],
      [{ updateType: 'ADD' }, 400, 'UNKNOWN_PROFILE'],
      [{ name: alex.username, updateType: 'ADD' }, 400, 'ALREADY_FRIENDS'],
      [{ name: 'NobodyHasThisName', updateType: 'REMOVE' }, 400, 'UNKNOWN_PROFILE'],
    ];
    for (const [body, status, name] of refusals) {
      const reply = await game('PUT', 'friends', steve.gameToken, body);
      assert.equal(reply.status, status, JSON.stringify(body));
      assert.equal(reply.body.path, '/friends');
      assert.equal(reply.body.error, name, JSON.stringify(body));
      assert.equal(reply.body.errorType, name);
      assert.deepEqual(reply.body.details, { status: name });
      assert.equal(typeof reply.body.errorMessage, 'string');
      assert.equal(reply.body.errorMessage, reply.body.developerMessage);
    }
    const bad = await game('PUT', 'friends', steve.gameToken, { name: alex.username, updateType: 'BEFRIEND' });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error, 'INVALID_JSON');
    const broken = await service.call('PUT', `${SERVICES}/friends`, { token: steve.gameToken, headers: GAME_HEADERS, body: '{"name":' });
    assert.equal(broken.status, 400);
    assert.equal(broken.body.path, '/friends');
    const carol = await gamer();
    const none = await game('PUT', 'player/friends', carol.gameToken, { profileId: steve.id, updateType: 'REMOVE' });
    assert.equal(none.status, 400);
    assert.equal(none.body.error, 'NOT_FRIENDS');
    assert.equal(none.body.path, '/player/friends');
    assert.deepEqual(await listOf(steve.gameToken), before, 'nothing changed');
    assert.deepEqual(await listOf(carol.gameToken), EMPTY);
  });

  it("changes only the token's own profile: another player's token cannot end or accept what is not theirs", async () => {
    const steve = await gamer();
    const alex = await gamer();
    const mallory = await gamer();
    await game('PUT', 'friends', steve.gameToken, { name: alex.username, updateType: 'ADD' });
    // Mallory names Steve: that is a request of Mallory's own, never an acceptance of Alex's.
    await game('PUT', 'friends', mallory.gameToken, { profileId: steve.id, updateType: 'ADD' });
    assert.equal((await game('PUT', 'friends', mallory.gameToken, { profileId: alex.id, updateType: 'REMOVE' })).status, 400);
    assert.deepEqual(await listOf(alex.gameToken), { ...EMPTY, incomingRequests: [{ profileId: steve.id, name: steve.username }] });
    assert.deepEqual(await listOf(steve.gameToken), {
      ...EMPTY,
      incomingRequests: [{ profileId: mallory.id, name: mallory.username }],
      outgoingRequests: [{ profileId: alex.id, name: alex.username }],
    });
    // A web token is not a game token.
    assert.equal((await game('GET', 'friends', steve.token)).status, 401);
    assert.equal((await game('GET', 'friends', 'not-a-token')).status, 401);
  });

  it('shares friendsPreferences through player/attributes; a player who takes no requests gets none (INVITE_REJECTED, 403)', async () => {
    const steve = await gamer();
    const alex = await gamer();
    const attributes = await game('GET', 'player/attributes', alex.gameToken);
    assert.deepEqual(attributes.body.friendsPreferences, { friends: 'ENABLED', acceptInvites: 'ENABLED' });
    // 26.2's POST with only what changed.
    const saved = await game('POST', 'player/attributes', alex.gameToken, { friendsPreferences: { acceptInvites: 'DISABLED' } });
    assert.equal(saved.status, 200);
    assert.deepEqual(saved.body.friendsPreferences, { friends: 'ENABLED', acceptInvites: 'DISABLED' });
    assert.equal(saved.body.profanityFilterPreferences.profanityFilterOn, false, 'the rest kept');
    const refused = await game('PUT', 'friends', steve.gameToken, { name: alex.username, updateType: 'ADD' });
    assert.equal(refused.status, 403);
    assert.equal(refused.body.error, 'INVITE_REJECTED');
    assert.deepEqual(await listOf(alex.gameToken), EMPTY);
    const bad = await game('POST', 'player/attributes', alex.gameToken, { friendsPreferences: { friends: 'MAYBE' } });
    assert.equal(bad.status, 400);
    assert.deepEqual((await game('GET', 'player/attributes', alex.gameToken)).body.friendsPreferences, {
      friends: 'ENABLED',
      acceptInvites: 'DISABLED',
    });
    // Alex may still send requests, and Steve accept them.
    assert.equal((await game('PUT', 'friends', alex.gameToken, { name: steve.username, updateType: 'ADD' })).status, 200);
    assert.equal((await game('PUT', 'friends', steve.gameToken, { name: alex.username, updateType: 'ADD' })).status, 200);
    assert.equal((await listOf(alex.gameToken)).friends.length, 1);
  });

  it('keeps presence 10 minutes, shows it only to accepted friends, and clears it on OFFLINE', async () => {
    const steve = await gamer();
    const alex = await gamer();
    const stranger = await gamer();
    await game('PUT', 'friends', steve.gameToken, { name: alex.username, updateType: 'ADD' });
    await game('PUT', 'friends', stranger.gameToken, { name: steve.username, updateType: 'ADD' });
    const online = await game('POST', 'presence', steve.gameToken, { status: 'PLAYING_SERVER' });
    assert.equal(online.status, 200, JSON.stringify(online.body));
    assert.deepEqual(online.body, { presence: [] }, 'Alex has not accepted: nobody to see');
    const seen = async (token: string, spelling = '') => {
      const reply = await game('POST', `${spelling}presence`, token, { status: 'ONLINE' });
      assert.equal(reply.status, 200);
      return reply.body.presence as { profileId: string; pmid: string; status: string; lastUpdated: string }[];
    };
    assert.deepEqual(await seen(alex.gameToken), [], 'a request is not a friendship');
    await game('PUT', 'friends', alex.gameToken, { name: steve.username, updateType: 'ADD' });
    const [entry] = await seen(alex.gameToken, 'player/');
    assert.equal(entry!.profileId, steve.id);
    assert.equal(entry!.status, 'PLAYING_SERVER');
    assert.match(entry!.pmid, /^[0-9a-f]{32}$/);
    assert.equal(entry!.lastUpdated, new Date(clock.now()).toISOString().replace(/\.\d{3}Z$/, 'Z'));
    assert.deepEqual(await seen(stranger.gameToken), [], 'not a friend: sees nothing');
    // 26.2's form with joinInfo is taken too (peer-to-peer worlds are not served).
    const withJoinInfo = await game('POST', 'presence', steve.gameToken, {
      status: 'PLAYING_HOSTED_SERVER',
      joinInfo: { value: null, invites: [] },
    });
    assert.equal(withJoinInfo.status, 200);
    assert.deepEqual(
      withJoinInfo.body.presence.map((friend: { profileId: string }) => friend.profileId),
      [alex.id],
    );
    // The same answer again with its ETag: 304.
    const again = await game('POST', 'presence', alex.gameToken, { status: 'ONLINE' });
    const notModified = await game(
      'POST',
      'presence',
      alex.gameToken,
      { status: 'ONLINE' },
      { 'if-none-match': String(again.headers.etag) },
    );
    assert.equal(notModified.status, 304);

    clock.advance(9 * 60_000);
    assert.equal((await seen(alex.gameToken))[0]?.status, 'PLAYING_HOSTED_SERVER');
    clock.advance(2 * 60_000);
    assert.deepEqual(await seen(alex.gameToken), [], 'ten minutes without an update: gone');
    await game('POST', 'presence', steve.gameToken, { status: 'ONLINE' });
    assert.equal((await seen(alex.gameToken)).length, 1);
    await game('POST', 'presence', steve.gameToken, { status: 'OFFLINE' });
    assert.deepEqual(await seen(alex.gameToken), [], 'OFFLINE clears it');
    const bad = await game('POST', 'presence', steve.gameToken, { status: 'DANCING' });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error, 'INVALID_JSON');
  });

  it('lets the profile page list friends and requests, send one by name, accept, decline and remove', async () => {
    const steve = await gamer();
    const alex = await gamer();
    const carol = await gamer();
    await game('PUT', 'friends', carol.gameToken, { name: steve.username, updateType: 'ADD' });
    const home = (token: string) => service.call('GET', '/api/home/friends', { token });
    const [mine] = (await home(steve.token)).body.data;
    assert.deepEqual(mine.incoming, [{ uuid: (await home(carol.token)).body.data[0].uuid, name: carol.username }]);
    assert.deepEqual([mine.friends, mine.outgoing], [[], []]);

    const sent = await service.call('POST', '/api/home/friends', { token: steve.token, body: { name: alex.username, profile: mine.uuid } });
    assert.equal(sent.status, 200, sent.body.msg);
    assert.deepEqual(
      sent.body.data.outgoing.map((friend: { name: string }) => friend.name),
      [alex.username],
    );
    assert.equal((await listOf(alex.gameToken)).incomingRequests[0]?.profileId, steve.id, 'the game sees it');
    // Accept Carol's by her UUID, decline nothing yet; Alex accepts in the game.
    const carolUuid = mine.incoming[0].uuid;
    const accepted = await service.call('POST', '/api/home/friends', { token: steve.token, body: { uuid: carolUuid } });
    assert.deepEqual(
      accepted.body.data.friends.map((friend: { name: string; status: string | null }) => [friend.name, friend.status]),
      [[carol.username, null]],
    );
    await game('POST', 'presence', carol.gameToken, { status: 'PLAYING_REALMS' });
    assert.equal((await home(steve.token)).body.data[0].friends[0].status, 'PLAYING_REALMS', 'what a friend is doing');

    const self = await service.call('POST', '/api/home/friends', {
      token: steve.token,
      body: { name: steve.username },
      headers: { 'accept-language': 'ru' },
    });
    assert.equal(self.status, 400);
    assert.equal(self.headers['x-error-key'], 'friends.self');
    assert.match(self.body.msg, /себя/);
    const unknown = await service.call('POST', '/api/home/friends', { token: steve.token, body: { name: 'NobodyHasThisName' } });
    assert.equal(unknown.status, 400);
    assert.equal(unknown.headers['x-error-key'], 'friends.unknownName');
    const empty = await service.call('POST', '/api/home/friends', { token: steve.token, body: {} });
    assert.equal(empty.status, 400);
    const notMine = await service.call('POST', '/api/home/friends', {
      token: steve.token,
      body: { name: alex.username, profile: carolUuid },
    });
    assert.equal(notMine.status, 404, "another account's profile");

    const removed = await service.call('DELETE', `/api/home/friends/${carolUuid}`, { token: steve.token });
    assert.equal(removed.status, 200);
    assert.deepEqual(removed.body.data.friends, []);
    assert.deepEqual((await listOf(carol.gameToken)).friends, []);
    assert.equal((await service.call('DELETE', `/api/home/friends/${carolUuid}`, { token: steve.token })).status, 400, 'no relation left');
  });
});

describe('friends off (FRIENDS unset) and GAME_SERVICES=false', () => {
  it('answers 404 for the friends routes without FRIENDS, and for the minecraft/profile routes without GAME_SERVICES', async () => {
    const off = await startService('sqlite');
    try {
      const player = await off.registerPlayer();
      const token = (
        await off.call('POST', '/api/yggdrasil/authserver/authenticate', { body: { username: player.username, password: player.password } })
      ).body.accessToken;
      for (const path of ['friends', 'player/friends']) assert.equal((await off.call('GET', `${SERVICES}/${path}`, { token })).status, 404);
      assert.equal((await off.call('POST', `${SERVICES}/presence`, { token, body: { status: 'ONLINE' } })).status, 404);
      assert.equal((await off.call('GET', '/api/home/friends', { token: player.token })).status, 404);
      const attributes = await off.call('GET', `${SERVICES}/player/attributes`, { token });
      assert.equal(attributes.status, 200);
      assert.equal(attributes.body.friendsPreferences, undefined, 'no friends screen');
      assert.equal((await off.call('GET', `${SERVICES}/minecraft/profile`, { token })).status, 200);
    } finally {
      await off.close();
    }
    const noServices = await startService('sqlite', { settings: { gameServices: false, friends: true } });
    try {
      const player = await noServices.registerPlayer();
      const token = (
        await noServices.call('POST', '/api/yggdrasil/authserver/authenticate', {
          body: { username: player.username, password: player.password },
        })
      ).body.accessToken;
      assert.equal((await noServices.call('GET', `${SERVICES}/friends`, { token })).status, 404);
      for (const [method, path] of [
        ['GET', 'minecraft/profile'],
        ['DELETE', 'minecraft/profile/skins/active'],
        ['GET', 'minecraft/profile/namechange'],
        ['PUT', `minecraft/profile/name/${player.username}x`],
      ] as const) {
        assert.equal((await noServices.call(method, `${SERVICES}/${path}`, { token })).status, 404, `${method} ${path}`);
      }
      assert.equal(
        (await noServices.call('GET', `${SERVICES}/minecraft/profile/lookup/name/${player.username}`)).status,
        200,
        'look-ups stay',
      );
      assert.equal(
        (await noServices.call('GET', '/api/home/friends', { token: player.token })).status,
        200,
        'the profile page keeps its card',
      );
    } finally {
      await noServices.close();
    }
  });
});
