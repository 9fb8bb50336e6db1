// USER_CAPES (contract section 19): players upload, list, wear and delete capes of their own, from the web API and
// from a launcher through the game login (@xmcl/user's client); with USER_CAPES=false both ways are 403.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { YggdrasilThirdPartyClient } from '@xmcl/user';
import { decodePng, encodePng } from '../rendering/png.ts';
import { describeEachDatabase } from '../../test/support/databases.ts';
import { capeFile, fixture } from '../../test/support/fixtures.ts';
import { OWNER, startService, type TestService } from '../../test/support/service.ts';
import { MAX_OWN_CAPES_PER_PLAYER } from './own-capes.ts';

const API = '/api/yggdrasil';

describeEachDatabase('capes players upload themselves', (kind) => {
  for (const userCapes of [true, false]) {
    describe(`USER_CAPES=${userCapes}`, () => {
      let service: TestService;
      let root: string;
      before(async () => {
        service = await startService(kind, { settings: { owner: OWNER, userCapes } });
        await service.app.listen({ port: 0, host: '127.0.0.1' });
        root = `http://127.0.0.1:${(service.app.server.address() as { port: number }).port}${API}`;
      });
      after(async () => service?.close());

      const capes = async (token: string) => (await service.call('GET', '/api/home/capes', { token })).body.data;
      const wornCape = async (player: { username: string }) => {
        return ((await service.call('GET', `/api/skin/launcher/${player.username}`)).body.CAPE?.digest as string | undefined) ?? '';
      };
      const gameLogin = async (player: { mail: string; password: string }) =>
        (
          await service.call('POST', `${API}/authserver/authenticate`, {
            body: { username: player.mail, password: player.password, agent: { name: 'Minecraft', version: 1 } },
          })
        ).body as { accessToken: string; selectedProfile: { id: string } };
      const launcherUpload = (login: { accessToken: string; selectedProfile: { id: string } }, data: Buffer) =>
        new YggdrasilThirdPartyClient(root).setTexture({
          accessToken: login.accessToken,
          uuid: login.selectedProfile.id,
          type: 'cape',
          texture: { data },
        });

      if (!userCapes) {
        it('refuses a cape from the web and from a launcher, and stores nothing', async () => {
          const player = await service.registerPlayer();
          const web = await service.upload('/api/home/capes', player.token, { name: 'Mine' }, capeFile('cape'));
          assert.equal(web.status, 403);
          assert.match(web.body.msg, /Capes are given by the administrators/);
          await assert.rejects(launcherUpload(await gameLogin(player), fixture('capes/cape.png')), (error: { statusCode?: number }) => {
            return error.statusCode === 403;
          });
          assert.deepEqual(await capes(player.token), []);
          const stored = await service.db.selectFrom('capes').select('id').execute();
          assert.equal(stored.length, 0);
        });
        return;
      }

      it('uploads a cape that the player wears at once, and lists it with the capes an admin gave', async () => {
        const player = await service.registerPlayer();
        const uploaded = await service.upload('/api/home/capes', player.token, { name: 'My cape' }, capeFile('cape'));
        assert.equal(uploaded.status, 200, uploaded.body.msg);
        assert.equal(uploaded.body.data.name, 'My cape');
        assert.match(uploaded.body.data.digest, /^[0-9a-f]{64}$/);
        const listed = await capes(player.token);
        assert.deepEqual(
          listed.map((cape: { uuid: string; selected: boolean }) => [cape.uuid, cape.selected]),
          [[uploaded.body.data.uuid, true]],
        );
        assert.match(await wornCape(player), new RegExp(uploaded.body.data.digest), 'the launcher document shows it');

        const second = await service.upload('/api/home/capes', player.token, {}, capeFile('cape-hd-128x64'));
        assert.equal(second.body.data.name, 'Cape');
        assert.match(await wornCape(player), new RegExp(uploaded.body.data.digest), 'the first one stays worn');
        const wear = await service.call('PATCH', '/api/home', { token: player.token, body: { selected_cape: second.body.data.uuid } });
        assert.equal(wear.status, 200, wear.body.msg);
        assert.match(await wornCape(player), new RegExp(second.body.data.digest), 'worn like any cape they own');
      });

      it('checks the picture as every texture is checked, and keeps nothing of a refused one', async () => {
        const player = await service.registerPlayer();
        const skinSized = await service.upload('/api/home/capes', player.token, {}, capeFile('x', fixture('skins/classic.png')));
        assert.equal(skinSized.status, 400);
        assert.match(skinSized.body.msg, /A cape must be 64x32 pixels/);
        const notPng = await service.upload('/api/home/capes', player.token, {}, capeFile('x', Buffer.from('not a png')));
        assert.equal(notPng.status, 400);
        const longName = await service.upload('/api/home/capes', player.token, { name: 'x'.repeat(65) }, capeFile('cape'));
        assert.equal(longName.status, 400);
        assert.deepEqual(await capes(player.token), []);
      });

      it('deletes only the capes the player uploaded', async () => {
        const player = await service.registerPlayer();
        const other = await service.registerPlayer();
        const own = (await service.upload('/api/home/capes', player.token, {}, capeFile('cape'))).body.data;
        const othersCape = (await service.upload('/api/home/capes', other.token, {}, capeFile('cape'))).body.data;
        const playerId = own.owners[0];
        const given = await service.upload(
          '/api/admin/user/cape/upload',
          await service.ownerToken(),
          { name: 'Founder', owners: String(playerId) },
          capeFile('cape-hd-128x64'),
        );
        assert.equal(given.status, 200);

        for (const uuid of [given.body.data.uuid, othersCape.uuid, '00000000-0000-0000-0000-000000000000']) {
          const refused = await service.call('DELETE', `/api/home/capes/${uuid}`, { token: player.token });
          assert.equal(refused.status, 404, uuid);
        }
        assert.equal((await capes(other.token)).length, 1, "the other player's cape stays");
        const deleted = await service.call('DELETE', `/api/home/capes/${own.uuid}`, { token: player.token });
        assert.equal(deleted.status, 200);
        assert.deepEqual(
          (await capes(player.token)).map((cape: { uuid: string }) => cape.uuid),
          [given.body.data.uuid],
        );
        assert.equal(await wornCape(player), '', 'the deleted cape is no longer worn');
        const texture = await service.db.selectFrom('textures').select('digest').where('digest', '=', own.digest).executeTakeFirst();
        assert.ok(texture, 'the texture stays while the other player has the same picture');
      });

      it(`keeps at most ${MAX_OWN_CAPES_PER_PLAYER} own capes, apart from skins`, async () => {
        const player = await service.registerPlayer();
        const first = (await service.upload('/api/home/capes', player.token, {}, capeFile('cape'))).body.data;
        const userId = first.owners[0];
        // The other 99 as rows of the same picture, as 99 uploads would leave them.
        await service.db
          .insertInto('capes')
          .values(
            Array.from({ length: MAX_OWN_CAPES_PER_PLAYER - 1 }, (_, index) => ({
              uuid: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}${userId}`.slice(0, 36),
              name: `Cape ${index}`,
              texture_digest: first.digest,
              created_at: 0,
              uploader_id: userId,
            })),
          )
          .execute();
        const picture = decodePng(fixture('capes/cape.png'));
        picture.data.set([1, 2, 3, 255], 0);
        const refused = await service.upload('/api/home/capes', player.token, {}, capeFile('one-too-many', encodePng(picture)));
        assert.equal(refused.status, 400);
        assert.match(refused.body.msg, /You have 100 capes of your own already/);
        const skin = await service.upload('/api/home/skins', player.token, {}, [
          { field: 'skin', filename: 'skin.png', contentType: 'image/png', bytes: fixture('skins/classic.png') },
        ]);
        assert.equal(skin.status, 200, 'skins are counted apart');
      });

      it('takes a cape from a launcher (PUT .../cape) and wears it on that profile', async () => {
        const player = await service.registerPlayer();
        const login = await gameLogin(player);
        const picture = decodePng(fixture('capes/cape.png'));
        picture.data.set([9, 9, 9, 255], 4);
        await launcherUpload(login, encodePng(picture));
        const listed = await capes(player.token);
        assert.equal(listed.length, 1);
        assert.equal(listed[0].name, 'From the launcher');
        assert.equal(listed[0].selected, true);
        const profile = (await service.call('GET', `${API}/sessionserver/session/minecraft/profile/${login.selectedProfile.id}`)).body;
        const textures = JSON.parse(Buffer.from(profile.properties[0].value, 'base64').toString('utf8')).textures;
        assert.match(textures.CAPE.url, new RegExp(listed[0].digest), 'the game sees the cape');
        // Not a cape: refused with the game login's own error shape, nothing stored.
        await assert.rejects(launcherUpload(login, fixture('skins/classic.png')), (error: { statusCode?: number }) => {
          return error.statusCode === 400;
        });
        assert.equal((await capes(player.token)).length, 1);
      });
    });
  }
});
