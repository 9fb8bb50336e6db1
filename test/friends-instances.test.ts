// Friends on two instances sharing one PostgreSQL and Redis (contract section 25): a request sent through one is
// accepted through the other, and presence told to one is seen through the other, kept in Redis for 10 minutes.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import { INSTANCE_WAYS, redisUrl, skipWithoutInstances, startTwoInstances } from './support/instances.ts';
import { randomAddress, type ServiceClient } from './support/service.ts';

const SERVICES = '/api/yggdrasil/minecraftservices';
const GAME_HEADERS = { 'content-type': 'application/json; charset=utf-8' };

for (const [way, startInstance] of INSTANCE_WAYS) {
  describe(`friends on two instances sharing Redis: ${way}`, { skip: skipWithoutInstances }, () => {
    let a: ServiceClient;
    let b: ServiceClient;
    let close: (() => Promise<void>) | undefined;
    before(async () => {
      ({ a, b, close } = await startTwoInstances(startInstance, { friends: true }));
    });
    after(() => close?.());

    const gamer = async (instance: ServiceClient) => {
      const registered = await instance.registerPlayer();
      const login = await instance.call('POST', '/api/yggdrasil/authserver/authenticate', {
        body: { username: registered.username, password: registered.password },
        ip: randomAddress(),
      });
      return { ...registered, gameToken: login.body.accessToken as string, id: login.body.selectedProfile.id as string };
    };
    const game = (instance: ServiceClient, method: string, path: string, token: string, body?: unknown) =>
      instance.call(method, `${SERVICES}/${path}`, {
        token,
        headers: GAME_HEADERS,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });

    it('sends a request on one and accepts it on the other; presence told to one is seen on the other, and cleared there', async () => {
      const steve = await gamer(a);
      const alex = await gamer(b);
      assert.equal((await game(a, 'PUT', 'friends', steve.gameToken, { name: alex.username, updateType: 'ADD' })).status, 200);
      const etagOnA = (await game(a, 'GET', 'friends', alex.gameToken)).headers.etag;
      const onB = await b.call('GET', `${SERVICES}/friends`, { token: alex.gameToken, headers: { 'if-none-match': String(etagOnA) } });
      assert.equal(onB.status, 304, 'one ETag for one list, whichever instance answers');
      assert.equal((await game(b, 'PUT', 'player/friends', alex.gameToken, { profileId: steve.id, updateType: 'ADD' })).status, 200);
      assert.deepEqual((await game(a, 'GET', 'friends', steve.gameToken)).body.friends, [{ profileId: alex.id, name: alex.username }]);

      assert.equal((await game(a, 'POST', 'presence', steve.gameToken, { status: 'PLAYING_SERVER' })).status, 200);
      const seen = await game(b, 'POST', 'player/presence', alex.gameToken, { status: 'ONLINE' });
      assert.deepEqual(
        seen.body.presence.map((entry: { profileId: string; status: string }) => [entry.profileId, entry.status]),
        [[steve.id, 'PLAYING_SERVER']],
      );
      const back = await game(a, 'POST', 'presence', steve.gameToken, { status: 'ONLINE' });
      assert.deepEqual(
        back.body.presence.map((entry: { profileId: string }) => entry.profileId),
        [alex.id],
        'and the other way',
      );
      // Kept in Redis under this deployment's name, ending by itself after 10 minutes.
      const redis = new Redis(redisUrl!);
      try {
        const keys = await redis.keys('skinservice:presence:*');
        const steveKey = keys.find((key) => key.endsWith(steve.id.replace(/^(.{8})(.{4})(.{4})(.{4})/, '$1-$2-$3-$4-')));
        assert.ok(steveKey, 'a key for the profile');
        const ttl = await redis.pttl(steveKey);
        assert.ok(ttl > 9 * 60_000 && ttl <= 10 * 60_000, `expires in ${ttl} ms`);
      } finally {
        redis.disconnect();
      }
      await game(b, 'POST', 'presence', alex.gameToken, { status: 'OFFLINE' });
      assert.deepEqual((await game(a, 'POST', 'presence', steve.gameToken, { status: 'ONLINE' })).body.presence, []);
      // The profile page of either instance shows the friend and what they do.
      const page = await b.call('GET', '/api/home/friends', { token: alex.token });
      assert.deepEqual(
        page.body.data[0].friends.map((friend: { name: string; status: string }) => [friend.name, friend.status]),
        [[steve.username, 'ONLINE']],
      );
    });
  });
}
