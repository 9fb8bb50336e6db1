// Every route of the game login in every state a token can be in (issue 45), through the clients launchers and
// servers use (`yggdrasil`, minecraft-protocol's own client, and @xmcl/user's YggdrasilThirdPartyClient) where they
// cover the route, else with the bodies HMCL and PCL-CE send. A serialiser error (a response schema requiring a field
// the answer rightly lacks) reaches a launcher as a 500; here every answer of every state is one the client accepts.
//
// The states: bound (a login by a profile name), unbound (a login by mail of an account with two profiles: no
// profile chosen yet), single (a login by mail of an account with one profile: bound to it), renamed (bound to a
// profile renamed since: it only refreshes) and no profile (bound to a profile deleted since: the token is dead).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { YggdrasilThirdPartyClient } from '@xmcl/user';
import yggdrasil from 'yggdrasil';
import { describeEachDatabase } from '../../test/support/databases.ts';
import { fixture } from '../../test/support/fixtures.ts';
import { OWNER, randomAddress, startService, uniqueName, type TestService } from '../../test/support/service.ts';
import { DEFAULT_PROFILE_SETTINGS } from '../settings.ts';

const API = '/api/yggdrasil';
const dashless = (uuid: string) => uuid.replace(/-/g, '');

type State = 'bound' | 'unbound' | 'single' | 'renamed' | 'no profile';
const STATES: State[] = ['bound', 'unbound', 'single', 'renamed', 'no profile'];

interface Profile {
  id: string;
  name: string;
}

/** A token in a state, with what the test needs to know about it. */
interface Token {
  accessToken: string;
  clientToken: string;
  /** The profile the token acts as (bound, single), or the one it was bound to (renamed, no profile); null: unbound. */
  profile: Profile | null;
  /** Another profile of the same account than `profile`, when it has one (an unbound token has none). */
  sibling: Profile | null;
  /** The account's profiles now, in creation order. */
  owned: Profile[];
}

/** What a state allows: a live token (validate, refresh) and a usable one that acts as a profile (join, textures). */
const LIVE: Record<State, boolean> = { bound: true, unbound: true, single: true, renamed: true, 'no profile': false };
const VALIDATES: Record<State, boolean> = { bound: true, unbound: true, single: true, renamed: false, 'no profile': false };
const ACTS_AS_PROFILE: Record<State, boolean> = { bound: true, unbound: false, single: true, renamed: false, 'no profile': false };

describeEachDatabase('the game login in every token state (issue 45)', (kind) => {
  let service: TestService;
  let root: string;
  const secret = Buffer.alloc(16, 5);
  const serverKey = Buffer.from('a game server key');

  before(async () => {
    service = await startService(kind, { settings: { owner: OWNER, profiles: { ...DEFAULT_PROFILE_SETTINGS, maxProfiles: 3 } } });
    await service.app.listen({ port: 0, host: '127.0.0.1' });
    root = `http://127.0.0.1:${(service.app.server.address() as { port: number }).port}${API}`;
  });
  after(async () => service?.close());

  const auth = () => yggdrasil({ host: `${root}/authserver` });
  const session = () => yggdrasil.server({ host: `${root}/sessionserver` });
  const launcher = () => new YggdrasilThirdPartyClient(root);
  const yggPost = (path: string, body: unknown) => service.call('POST', `${API}/${path}`, { body, ip: randomAddress() });

  /** A registered player with `profiles` profiles (the primary one first). */
  const playerWith = async (profiles: 1 | 2) => {
    const registered = await service.registerPlayer();
    const home = (await service.call('GET', '/api/home', { token: registered.token })).body.data;
    const owned: Profile[] = [{ id: dashless(home.Uuid), name: registered.username }];
    if (profiles === 2) {
      const added = await service.call('POST', '/api/home/profiles', { token: registered.token, body: { name: uniqueName('Alt') } });
      assert.equal(added.status, 201, added.body.msg);
      owned.push({ id: dashless(added.body.data.uuid), name: added.body.data.name });
    }
    return { ...registered, owned };
  };

  /** A fresh token in `state`, logged in through the yggdrasil package as a launcher does. */
  async function tokenIn(state: State): Promise<Token> {
    const player = await playerWith(state === 'single' ? 1 : 2);
    const [primary, second] = player.owned as [Profile, Profile | undefined];
    const user = state === 'unbound' || state === 'single' ? player.mail : second!.name;
    const login = await auth().auth({ user, pass: player.password });
    const token: Token = {
      accessToken: login.accessToken,
      clientToken: login.clientToken,
      profile: login.selectedProfile ?? null,
      sibling: state === 'single' ? null : primary,
      owned: player.owned,
    };
    if (state === 'unbound') {
      assert.equal('selectedProfile' in login, false, 'an unbound login has no selectedProfile key');
      token.sibling = null;
    } else assert.deepEqual(login.selectedProfile, state === 'single' ? primary : second);
    if (state === 'renamed') {
      const name = uniqueName('Ren');
      const renamed = await service.call('PATCH', `/api/home/profiles/${second!.id}`, { token: player.token, body: { name } });
      assert.equal(renamed.status, 200, renamed.body.msg);
      token.profile = { id: second!.id, name };
      token.owned = [primary, token.profile];
    }
    if (state === 'no profile') {
      const removed = await service.call('DELETE', `/api/home/profiles/${second!.id}`, {
        token: player.token,
        body: { password: player.password },
      });
      assert.equal(removed.status, 200, removed.body.msg);
      token.owned = [primary];
    }
    return token;
  }

  for (const state of STATES) {
    describe(`a token ${state}`, () => {
      it(`validate: ${VALIDATES[state] ? 'accepted' : 'Invalid token.'} (yggdrasil and @xmcl/user)`, async () => {
        const token = await tokenIn(state);
        if (VALIDATES[state]) await auth().validate(token.accessToken);
        else await assert.rejects(auth().validate(token.accessToken), /Invalid token\./);
        assert.equal(await launcher().validate(token.accessToken, token.clientToken), VALIDATES[state]);
      });

      for (const requestUser of [false, true]) {
        it(`refresh without a profile${requestUser ? ', with the user' : ''} (yggdrasil and @xmcl/user): the token stays as it was`, async () => {
          for (const client of ['yggdrasil', '@xmcl/user'] as const) {
            const token = await tokenIn(state);
            const refresh =
              client === 'yggdrasil'
                ? () => auth().refresh(token.accessToken, token.clientToken, requestUser)
                : () => launcher().refresh({ accessToken: token.accessToken, clientToken: token.clientToken, requestUser });
            if (!LIVE[state]) {
              await assert.rejects(refresh(), /Invalid token\./, client);
              continue;
            }
            const answer = await refresh();
            assert.equal(answer.clientToken, token.clientToken, client);
            assert.notEqual(answer.accessToken, token.accessToken, client);
            if (token.profile) assert.deepEqual(answer.selectedProfile, token.profile, `${client}: the profile, by its current name`);
            else assert.equal('selectedProfile' in answer, false, `${client}: still unbound, without the key`);
            assert.equal('user' in answer, requestUser, `${client}: the user only when asked`);
            assert.equal(await launcher().validate(answer.accessToken, token.clientToken), true, `${client}: the new token validates`);
            assert.equal(await launcher().validate(token.accessToken, token.clientToken), false, `${client}: the old one ended`);
            await assertJoins(answer.accessToken, token.profile ?? token.owned[0]!, !!token.profile, `${client}, refreshed`);
          }
        });
      }

      it('refresh naming a profile (HMCL and PCL-CE): binds an unbound token, accepts its own, refuses another', async () => {
        const token = await tokenIn(state);
        const own = token.profile ?? token.owned.at(-1)!;
        const named = await yggPost('authserver/refresh', {
          accessToken: token.accessToken,
          clientToken: token.clientToken,
          requestUser: true,
          selectedProfile: own,
        });
        if (!LIVE[state]) {
          assert.deepEqual([named.status, named.body.errorMessage], [403, 'Invalid token.']);
          return;
        }
        assert.equal(named.status, 200, JSON.stringify(named.body));
        assert.deepEqual(named.body.selectedProfile, own);
        await assertJoins(named.body.accessToken, own, true, 'bound by the refresh');
        const other = token.sibling ?? (token.profile ? null : token.owned[0]!);
        if (other) {
          const refused = await yggPost('authserver/refresh', { accessToken: named.body.accessToken, selectedProfile: other });
          assert.deepEqual([refused.status, refused.body.errorMessage], [400, 'Access token already has a profile assigned.']);
        }
      });

      it(`join and hasJoined (yggdrasil): ${ACTS_AS_PROFILE[state] ? 'as its profile only' : 'refused'}`, async () => {
        const token = await tokenIn(state);
        await assertJoins(token.accessToken, token.profile ?? token.owned[0]!, ACTS_AS_PROFILE[state], 'as it is');
        if (token.sibling) {
          await assert.rejects(
            session().join(token.accessToken, token.sibling.id, 'sibling-server', secret, serverKey),
            /Invalid token\./,
            "another profile of the account: the token is not that profile's",
          );
        }
      });

      it(`skin upload and removal (@xmcl/user): ${ACTS_AS_PROFILE[state] ? 'its own profile only' : 'refused'}`, async () => {
        const token = await tokenIn(state);
        const target = token.profile ?? token.owned[0]!;
        const upload = () =>
          launcher().setTexture({
            accessToken: token.accessToken,
            uuid: target.id,
            type: 'skin',
            texture: { data: fixture('skins/slim.png'), metadata: { model: 'slim' } },
          });
        const takeOff = () => launcher().setTexture({ accessToken: token.accessToken, uuid: target.id, type: 'skin' });
        if (ACTS_AS_PROFILE[state]) {
          await upload();
          await takeOff();
        } else {
          // An unbound token is refused as not that profile's (403); a dead or refresh-only one as no token (401).
          const status = LIVE[state] && VALIDATES[state] ? 403 : 401;
          await assert.rejects(upload(), (error: { statusCode?: number }) => error.statusCode === status);
          await assert.rejects(takeOff(), (error: { statusCode?: number }) => error.statusCode === status);
        }
        if (token.sibling) {
          await assert.rejects(
            launcher().setTexture({ accessToken: token.accessToken, uuid: token.sibling.id, type: 'skin' }),
            (error: { statusCode?: number }) => error.statusCode === (LIVE[state] && VALIDATES[state] ? 403 : 401),
            "another profile's skin is never this token's to change",
          );
        }
      });

      it(`chat-signing certificates: ${ACTS_AS_PROFILE[state] ? 'issued' : 'refused'}`, async () => {
        const token = await tokenIn(state);
        const answer = await service.call('POST', `${API}/minecraftservices/player/certificates`, {
          headers: { authorization: `Bearer ${token.accessToken}` },
        });
        const expected = ACTS_AS_PROFILE[state] ? 200 : VALIDATES[state] ? 403 : 401;
        assert.equal(answer.status, expected, JSON.stringify(answer.body));
        if (expected === 200) assert.match(answer.body.keyPair.publicKey, /^-----BEGIN RSA PUBLIC KEY-----/);
      });

      it('invalidate (yggdrasil and @xmcl/user): 204, and the token no longer validates', async () => {
        for (const client of ['yggdrasil', '@xmcl/user'] as const) {
          const token = await tokenIn(state);
          if (client === 'yggdrasil') await auth().invalidate(token.accessToken, token.clientToken);
          else assert.equal(await launcher().invalidate(token.accessToken, token.clientToken), true);
          assert.equal(await launcher().validate(token.accessToken, token.clientToken), false, client);
        }
      });
    });
  }

  /** Joins a server as `profile` (yggdrasil's client), or is refused, and asks hasJoined as the game server does. */
  async function assertJoins(accessToken: string, profile: Profile, joins: boolean, why: string) {
    const serverId = `server-${uniqueName('')}`;
    if (!joins) {
      await assert.rejects(session().join(accessToken, profile.id, serverId, secret, serverKey), /Invalid token\./, why);
      await assert.rejects(session().hasJoined(profile.name, serverId, secret, serverKey), why);
      return;
    }
    await session().join(accessToken, profile.id, serverId, secret, serverKey);
    const joined = await session().hasJoined(profile.name, serverId, secret, serverKey);
    assert.equal(joined.id, profile.id, why);
  }

  it('signs out every token of the account, whatever its state (yggdrasil)', async () => {
    const player = await playerWith(2);
    const byMail = await auth().auth({ user: player.mail, pass: player.password });
    const byName = await auth().auth({ user: player.owned[1]!.name, pass: player.password });
    await auth().signout(player.owned[0]!.name, player.password);
    for (const token of [byMail, byName]) await assert.rejects(auth().validate(token.accessToken), /Invalid token\./);
  });

  it('answers the routes that take no token for every profile of an account, whatever its tokens (@xmcl/user and the game server)', async () => {
    const player = await playerWith(2);
    await auth().auth({ user: player.mail, pass: player.password });
    for (const profile of player.owned) {
      const found = await launcher().lookup(profile.id, false);
      assert.deepEqual([found.id, found.name], [profile.id, profile.name]);
      assert.deepEqual((await yggPost('api/profiles/minecraft', [profile.name])).body, [profile]);
      assert.deepEqual((await service.call('GET', `${API}/api/minecraft/profile/lookup/name/${profile.name}`)).body, profile);
      assert.equal((await service.call('GET', `${API}/skins/MinecraftSkins/${profile.name}.png`)).status, 404, 'wears no skin');
    }
    assert.equal((await service.call('GET', `${API}/`)).status, 200);
    assert.equal((await service.call('GET', `${API}/minecraftservices/publickeys`)).status, 200);
  });
});
