// The skin library (contract section 19): publishing, one public entry per picture, browsing, saving and withdrawing.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { decodePng, encodePng } from '../rendering/png.ts';
import { describeEachDatabase } from '../../test/support/databases.ts';
import { capeFile, fixture, skinFile } from '../../test/support/fixtures.ts';
import { OWNER, startService, type TestService } from '../../test/support/service.ts';
import { IMMUTABLE } from '../images/reply.ts';
import { imageCacheFigures } from '../../test/support/image-metrics.ts';
import { MAX_PUBLICATIONS_PER_DAY } from './service.ts';

type LibraryCard = { kind: 'skin' | 'cape'; digest: string };

/** A skin picture nobody else has. */
const uniqueSkin = (seed: number) => {
  const picture = decodePng(fixture('skins/classic.png'));
  picture.data.set([seed % 256, Math.floor(seed / 256) % 256, 7, 255], 0);
  return skinFile(`skin-${seed}`, encodePng(picture));
};

describeEachDatabase('the skin library', (kind) => {
  let service: TestService;
  let seed = 1;
  before(async () => {
    service = await startService(kind, { settings: { userCapes: true } });
  });
  after(async () => service?.close());

  const uploadSkin = async (token: string, name = 'Skin') =>
    (await service.upload('/api/home/skins', token, { name }, uniqueSkin(seed++))).body.data;
  const publish = (token: string, uuid: string, body: object = { source: 'original' }, what = 'skins') =>
    service.call('POST', `/api/home/${what}/${uuid}/publish`, { token, body });

  it('publishes a skin once per picture, and anyone finds it by name, kind and uploader', async () => {
    const alice = await service.registerPlayer();
    const bob = await service.registerPlayer();
    const skin = await uploadSkin(alice.token, 'Autumn Hoodie');
    const published = await publish(alice.token, skin.uuid, { description: 'warm', source: 'original' });
    assert.equal(published.status, 201, published.body.msg);
    const entry = published.body.data;
    assert.equal(entry.name, 'Autumn Hoodie');
    assert.equal(entry.kind, 'skin');
    assert.equal(entry.model, 'classic');
    assert.equal(entry.owner.name, alice.username);
    assert.equal(entry.state, 'public');
    assert.equal(entry.saves, 0);

    // Bob uploads the same picture and tries to publish it: 409 naming Alice's entry.
    const picture = (await service.call('GET', `/textures/${entry.digest}`)).raw;
    const same = (await service.upload('/api/home/skins', bob.token, {}, skinFile('same', picture))).body.data;
    const again = await publish(bob.token, same.uuid);
    assert.equal(again.status, 409);
    assert.equal(again.body.data.id, entry.id);

    const found = await service.call('GET', '/api/library?q=hOODie&kind=skin');
    assert.equal(found.status, 200);
    assert.deepEqual(
      found.body.data.map((item: { id: number }) => item.id),
      [entry.id],
    );
    assert.equal(found.headers['x-total-count'], '1');
    const byUploader = await service.call('GET', `/api/library?uploader=${alice.username}`);
    assert.deepEqual(
      byUploader.body.data.map((item: { id: number }) => item.id),
      [entry.id],
    );
    assert.equal((await service.call('GET', '/api/library?kind=cape&q=hoodie')).body.data.length, 0);
    assert.equal((await service.call('GET', '/api/library?q=%25')).body.data.length, 0, '% is a letter, not a wildcard');
    assert.equal((await service.call('GET', `/api/library/${entry.id}`)).body.data.name, 'Autumn Hoodie');
    assert.equal((await service.call('GET', '/api/library?sort=sideways')).status, 400);
    assert.equal((await publish(bob.token, skin.uuid)).status, 404, "another player's skin");
  });

  it('saves a copy into the wardrobe, counts it, and keeps it after the entry is withdrawn', async () => {
    const alice = await service.registerPlayer();
    const bob = await service.registerPlayer();
    const skin = await uploadSkin(alice.token, 'Knight');
    const entry = (await publish(alice.token, skin.uuid)).body.data;

    assert.equal((await service.call('POST', `/api/library/${entry.id}/save`, { token: alice.token })).status, 409, 'own entry');
    const saved = await service.call('POST', `/api/library/${entry.id}/save`, { token: bob.token, body: { name: 'My knight' } });
    assert.equal(saved.status, 201, saved.body.msg);
    assert.equal(saved.body.data.name, 'My knight');
    assert.equal(saved.body.data.digest, entry.digest);
    assert.equal((await service.call('POST', `/api/library/${entry.id}/save`, { token: bob.token })).status, 409, 'saved already');
    assert.equal((await service.call('GET', `/api/library/${entry.id}`)).body.data.saves, 1);
    const popular = (await service.call('GET', '/api/library?sort=popular&limit=1')).body.data;
    assert.equal(popular[0].id, entry.id, 'the most saved first');

    const removed = await service.call('DELETE', `/api/library/${entry.id}/save`, { token: bob.token });
    assert.equal(removed.status, 200);
    assert.equal((await service.call('GET', '/api/home/skins', { token: bob.token })).body.data.length, 0);
    assert.equal((await service.call('GET', `/api/library/${entry.id}`)).body.data.saves, 0);
    assert.equal((await service.call('DELETE', `/api/library/${entry.id}/save`, { token: bob.token })).status, 404);

    await service.call('POST', `/api/library/${entry.id}/save`, { token: bob.token });
    const withdrawn = await service.call('DELETE', `/api/home/skins/${skin.uuid}/publish`, { token: alice.token });
    assert.equal(withdrawn.status, 200);
    assert.equal((await service.call('GET', `/api/library/${entry.id}`)).status, 404);
    assert.equal((await service.call('GET', '/api/home/skins', { token: bob.token })).body.data.length, 1, "Bob's copy stays");
    assert.equal((await publish(alice.token, skin.uuid)).status, 201, 'the picture may be published again');
  });

  it('publishes and saves own capes', async () => {
    const alice = await service.registerPlayer();
    const bob = await service.registerPlayer();
    const cape = (await service.upload('/api/home/capes', alice.token, { name: 'Banner' }, capeFile('cape-hd-128x64'))).body.data;
    const entry = (await publish(alice.token, cape.uuid, { source: 'repost', source_url: 'https://example.org/banner' }, 'capes')).body
      .data;
    assert.equal(entry.kind, 'cape');
    assert.equal(entry.model, null);
    assert.equal(entry.source_url, 'https://example.org/banner');
    const saved = await service.call('POST', `/api/library/${entry.id}/save`, { token: bob.token });
    assert.equal(saved.status, 201, saved.body.msg);
    assert.deepEqual(
      (await service.call('GET', '/api/home/capes', { token: bob.token })).body.data.map((c: { digest: string }) => c.digest),
      [entry.digest],
    );
    assert.equal((await publish(alice.token, cape.uuid, { source: 'original', source_url: 'ftp://x' }, 'capes')).status, 400);
  });

  it("answers the cards' pictures as immutable renders, drawn once: a second visit is answered from the caches", async () => {
    const alice = await service.registerPlayer();
    for (const name of ['Card one', 'Card two', 'Card three']) await publish(alice.token, (await uploadSkin(alice.token, name)).uuid);
    const cape = (await service.upload('/api/home/capes', alice.token, { name: 'Card cape' }, capeFile('cape'))).body.data;
    await publish(alice.token, cape.uuid, { source: 'original' }, 'capes');
    const page = (await service.call('GET', `/api/library?uploader=${alice.username}&limit=48`)).body.data as LibraryCard[];
    assert.equal(page.length, 4);
    // What the library page's cards show (web/src/pages/library.tsx): the service's render of the texture, by digest.
    const pictures = page.map((entry) => `/api/skin/${entry.kind === 'skin' ? 'body' : 'cloak'}/${entry.digest}?size=64&type=player`);

    const first = await imageCacheFigures(service);
    const etags: string[] = [];
    for (const url of pictures) {
      const reply = await service.call('GET', url);
      assert.equal(reply.status, 200, url);
      assert.equal(reply.headers['content-type'], 'image/png');
      assert.equal(reply.headers['cache-control'], IMMUTABLE, `${url}: the browser keeps it and asks no more`);
      etags.push(String(reply.headers.etag));
    }
    const drawn = await imageCacheFigures(service);
    assert.equal(drawn.renderMisses - first.renderMisses, pictures.length, 'each card drawn once');

    // Another visitor (no browser cache): the same pictures, from the service's caches, with nothing drawn again.
    for (const [index, url] of pictures.entries()) assert.equal((await service.call('GET', url)).headers.etag, etags[index]);
    const again = await imageCacheFigures(service);
    assert.equal(again.renderMisses, drawn.renderMisses, 'nothing drawn again');
    assert.equal(again.answerHits + again.renderHits - drawn.answerHits - drawn.renderHits, pictures.length);
    // A browser that asks anyway (a forced reload) is answered 304 without a body.
    for (const [index, url] of pictures.entries()) {
      const revalidated = await service.call('GET', url, { headers: { 'if-none-match': etags[index]! } });
      assert.equal(revalidated.status, 304, url);
      assert.equal(revalidated.raw.length, 0);
    }
  });

  it(`allows ${MAX_PUBLICATIONS_PER_DAY} publications in any 24 hours`, async () => {
    const alice = await service.registerPlayer();
    const skins = [];
    for (let index = 0; index <= MAX_PUBLICATIONS_PER_DAY; index += 1) skins.push(await uploadSkin(alice.token));
    for (const skin of skins.slice(0, MAX_PUBLICATIONS_PER_DAY)) assert.equal((await publish(alice.token, skin.uuid)).status, 201);
    const refused = await publish(alice.token, skins.at(-1).uuid);
    assert.equal(refused.status, 429);
    assert.ok(Number(refused.headers['retry-after']) > 0);
  });
});

describeEachDatabase('blocked pictures', (kind) => {
  let service: TestService;
  let ownerToken: string;
  before(async () => {
    service = await startService(kind, { settings: { owner: OWNER, userCapes: true } });
    ownerToken = await service.ownerToken();
  });
  after(async () => service?.close());

  it('refuses a blocked picture from the web, the game login and a library save, unpublishes it, and lets it in again once lifted', async () => {
    const alice = await service.registerPlayer();
    const bob = await service.registerPlayer();
    const skin = (await service.upload('/api/home/skins', alice.token, { name: 'Bad' }, uniqueSkin(9001))).body.data;
    const entry = (await service.call('POST', `/api/home/skins/${skin.uuid}/publish`, { token: alice.token, body: { source: 'original' } }))
      .body.data;

    const player = await service.registerPlayer();
    assert.equal(
      (await service.call('POST', '/api/admin/texture-blocks', { token: player.token, body: { digest: skin.digest } })).status,
      403,
    );
    assert.equal((await service.call('POST', '/api/admin/texture-blocks', { token: ownerToken, body: { digest: 'nope' } })).status, 400);
    const blocked = await service.call('POST', '/api/admin/texture-blocks', {
      token: ownerToken,
      body: { digest: skin.digest, reason: 'rude' },
    });
    assert.equal(blocked.status, 201, blocked.body.msg);
    assert.equal(
      (await service.call('POST', '/api/admin/texture-blocks', { token: ownerToken, body: { digest: skin.digest } })).status,
      409,
    );
    assert.deepEqual(
      (await service.call('GET', '/api/admin/texture-blocks', { token: ownerToken })).body.data.map(
        (block: { digest: string }) => block.digest,
      ),
      [skin.digest],
    );
    assert.equal((await service.call('GET', `/api/library/${entry.id}`)).status, 404, 'unpublished with the block');

    const picture = (await service.call('GET', `/textures/${skin.digest}`)).raw;
    const web = await service.upload('/api/home/skins', bob.token, {}, skinFile('again', picture));
    assert.equal(web.status, 403);
    assert.match(web.body.msg, /blocked/);
    const login = (
      await service.call('POST', '/api/yggdrasil/authserver/authenticate', { body: { username: bob.mail, password: bob.password } })
    ).body;
    const game = await service.upload(
      `/api/yggdrasil/api/user/profile/${login.selectedProfile.id}/skin`,
      login.accessToken,
      {},
      [{ field: 'file', filename: 'x.png', contentType: 'image/png', bytes: picture }],
      'PUT',
    );
    assert.equal(game.status, 403);
    assert.equal((await service.call('GET', '/api/home/skins', { token: bob.token })).body.data.length, 0, 'nothing stored');

    const lifted = await service.call('DELETE', `/api/admin/texture-blocks/${skin.digest}`, { token: ownerToken });
    assert.equal(lifted.status, 200);
    assert.equal((await service.call('DELETE', `/api/admin/texture-blocks/${skin.digest}`, { token: ownerToken })).status, 404);
    assert.equal((await service.upload('/api/home/skins', bob.token, {}, skinFile('again', picture))).status, 200);
  });

  it('refuses to save a copy of a picture blocked after it was published elsewhere', async () => {
    const alice = await service.registerPlayer();
    const bob = await service.registerPlayer();
    const skin = (await service.upload('/api/home/skins', alice.token, {}, uniqueSkin(9002))).body.data;
    const entry = (await service.call('POST', `/api/home/skins/${skin.uuid}/publish`, { token: alice.token, body: { source: 'original' } }))
      .body.data;
    // Blocked, then the entry made public again by hand: the save itself still refuses the picture.
    await service.call('POST', '/api/admin/texture-blocks', { token: ownerToken, body: { digest: skin.digest } });
    await service.db.updateTable('library_entries').set({ state: 'public' }).where('id', '=', entry.id).execute();
    const saved = await service.call('POST', `/api/library/${entry.id}/save`, { token: bob.token });
    assert.equal(saved.status, 403);
    assert.equal((await service.call('GET', '/api/home/skins', { token: bob.token })).body.data.length, 0);
  });
});
