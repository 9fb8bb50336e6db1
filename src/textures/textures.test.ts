import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import { decodePng, encodePng } from '../rendering/png.ts';
import { SWEEP_GRACE_MS } from './store.ts';
import { MAX_SKINS_PER_PLAYER } from './wardrobe.ts';
import { describeEachDatabase } from '../../test/support/databases.ts';
import { encodeVariant } from '../../test/support/png-variants.ts';
import { capeFile, FIXTURES, fixture, skinFile } from '../../test/support/fixtures.ts';
import { OWNER, startService, type TestService } from '../../test/support/service.ts';
import { mailTo } from '../../test/support/smtp.ts';

/** Every file under the service's DATA_DIR/textures, temporary ones included. */
function filesUnderTextures(service: TestService): string[] {
  try {
    return readdirSync(join(service.settings.dataDir, 'textures'), { recursive: true }).map(String).sort();
  } catch {
    return [];
  }
}

/** Fills a new player's wardrobe, then uploads a picture nobody has as the 101st: refused, and nothing of it kept. */
async function uploadPastTheSkinLimit(service: TestService) {
  const player = await service.registerPlayer();
  for (let index = 0; index < MAX_SKINS_PER_PLAYER; index += 1) {
    const reply = await service.upload('/api/home/skins', player.token, { name: `Skin ${index}` }, skinFile('classic'));
    assert.equal(reply.status, 200, `upload ${index + 1}: ${reply.body.msg}`);
  }
  const stored = async () => ({
    files: filesUnderTextures(service),
    textures: (await service.db.selectFrom('textures').select('digest').orderBy('digest').execute()).map((row) => row.digest),
    skins: (await service.db.selectFrom('skins').select('uuid').orderBy('uuid').execute()).map((row) => row.uuid),
  });
  const before = await stored();
  const picture = decodePng(fixture('skins/classic.png'));
  picture.data.set([...randomBytes(3), 255], 0);
  const refused = await service.upload('/api/home/skins', player.token, {}, skinFile('one-too-many', encodePng(picture)));
  assert.equal(refused.status, 400);
  assert.deepEqual({ ...refused.body, msg: '' }, { error: true, msg: '', url: null, data: {} });
  assert.match(refused.body.msg, /You have 100 skins already; delete one first/);
  assert.deepEqual(await stored(), before, 'no new file, texture row or skin row');
  const skins = (await service.call('GET', '/api/home/skins', { token: player.token })).body.data;
  assert.equal(skins.length, MAX_SKINS_PER_PLAYER);
}

describeEachDatabase('wardrobe and admin textures', (kind) => {
  let service: TestService;
  let ownerToken: string;
  before(async () => {
    service = await startService(kind, { settings: { owner: OWNER } });
    ownerToken = await service.ownerToken();
  });
  after(async () => service?.close());

  const userId = async (username: string) =>
    (await service.db.selectFrom('users').select('id').where('username', '=', username).executeTakeFirstOrThrow()).id;
  const setPerms = async (username: string, perms: number) =>
    service.db.updateTable('users').set({ perms }).where('username', '=', username).execute();
  const textureFiles = () => filesUnderTextures(service).filter((file) => file.endsWith('.png'));
  const count = async (table: 'skins' | 'textures' | 'capes') =>
    Number(
      (
        await service.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const uploadCape = async (fields: Record<string, string | string[]>, name = 'cape') =>
    service.upload('/api/admin/user/cape/upload', ownerToken, { name: 'Cape', ...fields }, capeFile(name));

  it('uploads a skin that becomes the selected one, and detects slim', async () => {
    const player = await service.registerPlayer();
    const first = await service.upload('/api/home/skins', player.token, { name: 'My skin' }, skinFile('classic'));
    assert.equal(first.status, 200);
    const record = first.body.data;
    assert.equal(record.name, 'My skin');
    assert.equal(record.owner, await userId(player.username));
    assert.equal(record.slim, false);
    assert.equal(record.hd, false);
    assert.equal(record.cloak_id, '');
    assert.match(record.digest, /^[0-9a-f]{64}$/);
    assert.equal(record.url, `http://skins.test/api/skin/cloak/${record.uuid}`);

    const slim = await service.upload('/api/home/skins', player.token, {}, skinFile('slim'));
    assert.equal(slim.body.data.slim, true, 'slim detected from the texture');
    const forced = await service.upload('/api/home/skins', player.token, { slim: 'false' }, skinFile('slim'));
    assert.equal(forced.body.data.slim, false, 'slim as given wins over detection');
    const hd = await service.upload('/api/home/skins', player.token, {}, skinFile('hd-128'));
    assert.equal(hd.body.data.hd, true);

    const home = (await service.call('GET', '/api/home', { token: player.token })).body.data;
    assert.equal(home.Selected_Skin, record.uuid, 'the first upload stays selected');
    assert.deepEqual(
      home.Skins.map((skin: { uuid: string }) => skin.uuid),
      [record.uuid, slim.body.data.uuid, forced.body.data.uuid, hd.body.data.uuid],
    );
    const list = await service.call('GET', '/api/home/skins', { token: player.token });
    assert.equal(list.body.data.length, 4);
    assert.deepEqual(
      list.body.data.filter((skin: { selected: boolean }) => skin.selected).map((skin: { uuid: string }) => skin.uuid),
      [record.uuid],
    );
  });

  it('accepts palette, 16-bit, grey, interlaced, legacy and HD skins', async () => {
    const player = await service.registerPlayer();
    const classic = decodePng(fixture('skins/classic.png'));
    const uploads: [string, Buffer][] = [
      ['palette', fixture('skins/flat-palette.png')],
      ['16-bit', fixture('skins/classic-16bit.png')],
      ['legacy 64x32', fixture('skins/legacy-64x32.png')],
      ['HD 128', fixture('skins/hd-128.png')],
      ['no overlay', fixture('skins/no-overlay.png')],
      ['grey+alpha', encodeVariant(classic, { colourType: 4, interlaced: false })],
      ['interlaced', encodeVariant(classic, { colourType: 6, interlaced: true })],
    ];
    for (const [label, bytes] of uploads) {
      const reply = await service.upload('/api/home/skins', player.token, { name: label }, skinFile(label, bytes));
      assert.equal(reply.status, 200, `${label}: ${reply.body.msg}`);
    }
  });

  it('refuses every invalid file with a clear 400 and leaves nothing behind', async () => {
    const player = await service.registerPlayer();
    const before = {
      skins: await count('skins'),
      capes: await count('capes'),
      textures: await count('textures'),
      files: textureFiles().length,
    };
    const expected: Record<string, RegExp> = {
      'bomb-20000x20000.png': /20000x20000/,
      'empty.png': /empty/,
      'not-a-png.png': /not a PNG/,
      'truncated.png': /truncated or damaged/,
      'wrong-size-100x100.png': /100x100/,
      'wrong-size-64x48.png': /64x48/,
    };
    for (const name of readdirSync(join(FIXTURES, 'invalid'))) {
      const bytes = fixture(`invalid/${name}`);
      const skin = await service.upload('/api/home/skins', player.token, {}, skinFile(name, bytes));
      assert.equal(skin.status, 400, name);
      assert.deepEqual({ ...skin.body, msg: '' }, { error: true, msg: '', url: null, data: {} });
      assert.match(skin.body.msg, expected[name]!, name);
      const cape = await service.upload('/api/admin/user/cape/upload', ownerToken, { name: 'Broken' }, capeFile(name, bytes));
      assert.equal(cape.status, 400, `cape ${name}`);
    }
    const after = {
      skins: await count('skins'),
      capes: await count('capes'),
      textures: await count('textures'),
      files: textureFiles().length,
    };
    assert.deepEqual(after, before);
    const temporary = readdirSync(service.settings.dataDir, { recursive: true })
      .map(String)
      .filter((file) => file.endsWith('.tmp'));
    assert.deepEqual(temporary, [], 'no temporary files left');
  });

  it('refuses the 101st skin of a player and writes nothing of it', () => uploadPastTheSkinLimit(service));

  it('refuses an oversized file or too many parts with 413, a wrong field with 400 and JSON with 415', async () => {
    const player = await service.registerPlayer();
    const oversized = Buffer.concat([fixture('skins/classic.png'), Buffer.alloc(1024 * 1024)]);
    const big = await service.upload('/api/home/skins', player.token, {}, skinFile('big', oversized));
    assert.equal(big.status, 413);
    assert.equal(big.body.msg, 'The file in "skin" is larger than the limit of 1 MB', 'the limit in words, not bytes');
    const wrongField = await service.upload('/api/home/skins', player.token, {}, [
      { field: 'file', filename: 'a.png', bytes: fixture('skins/classic.png') },
    ]);
    assert.equal(wrongField.status, 400);
    assert.match(wrongField.body.msg, /"skin"/);
    const json = await service.call('POST', '/api/home/skins', { token: player.token, body: { skin: 'x' } });
    assert.equal(json.status, 415);
    const badSlim = await service.upload('/api/home/skins', player.token, { slim: 'maybe' }, skinFile('classic'));
    assert.equal(badSlim.status, 400);
    const anonymous = await service.upload('/api/home/skins', undefined, {}, skinFile('classic'));
    assert.equal(anonymous.status, 401);
    // Past the upload's part limits the answer is a sentence of ours with its key, not the library's English.
    const manyFields = Object.fromEntries(Array.from({ length: 30 }, (_, index) => [`field${index}`, 'x']));
    const tooMany = await service.upload('/api/home/skins', player.token, manyFields, skinFile('classic'));
    assert.equal(tooMany.status, 413);
    assert.equal(tooMany.body.msg, 'The upload has too many parts: send one PNG file and a few fields');
    assert.equal(tooMany.headers['x-error-key'], 'http.uploadTooManyParts');
    const twoFiles = await service.upload('/api/home/skins', player.token, {}, [...skinFile('classic'), ...skinFile('slim')]);
    assert.equal(twoFiles.status, 413, 'a second file is refused');
    assert.equal(twoFiles.headers['x-error-key'], 'http.uploadTooManyParts');
    const home = await service.call('GET', '/api/home', { token: player.token });
    assert.deepEqual(home.body.data.Skins, [], 'no refused upload left a skin');
  });

  it('stores the same texture once and removes it only when nothing refers to it', async () => {
    const alice = await service.registerPlayer();
    const bob = await service.registerPlayer();
    // A picture of its own (one pixel changed), so that only these two skins refer to it.
    const picture = decodePng(fixture('skins/classic.png'));
    picture.data.set([1, 2, 3, 255], 0);
    const a = (
      await service.upload(
        '/api/home/skins',
        alice.token,
        {},
        skinFile('unique', encodeVariant(picture, { colourType: 6, interlaced: false })),
      )
    ).body.data;
    // The same picture in another encoding (interlaced, with a metadata chunk) is the same texture.
    const b = (
      await service.upload(
        '/api/home/skins',
        bob.token,
        {},
        skinFile('unique', encodeVariant(picture, { colourType: 6, interlaced: true })),
      )
    ).body.data;
    assert.equal(a.digest, b.digest);
    const filesOf = (digest: string) => textureFiles().filter((file) => file.includes(digest));
    assert.equal(filesOf(a.digest).length, 1, 'one file');
    assert.equal((await service.db.selectFrom('textures').select('digest').where('digest', '=', a.digest).execute()).length, 1, 'one row');

    assert.equal((await service.call('DELETE', `/api/home/skins/${a.uuid}`, { token: alice.token })).status, 200);
    assert.equal(filesOf(a.digest).length, 1, 'still referred to by Bob');
    assert.equal((await service.call('GET', `/api/skin/cloak/${b.uuid}`)).status, 200);
    assert.equal((await service.call('DELETE', `/api/home/skins/${b.uuid}`, { token: bob.token })).status, 200);
    assert.equal(filesOf(a.digest).length, 0, 'removed with the last reference');
    assert.equal((await service.db.selectFrom('textures').select('digest').where('digest', '=', a.digest).execute()).length, 0);
  });

  it('sweeps what a crash left behind at start, but not files young enough to be an upload in flight', async () => {
    const player = await service.registerPlayer();
    const skin = (await service.upload('/api/home/skins', player.token, {}, skinFile('classic'))).body.data;
    const dir = join(service.settings.dataDir, 'textures');
    const old = new Date(Date.now() - SWEEP_GRACE_MS - 60_000);
    const stray = {
      orphan: join(dir, `${'a'.repeat(64)}.png`),
      temporary: join(dir, `${'b'.repeat(64)}.png.123.tmp`),
      young: join(dir, `${'c'.repeat(64)}.png`),
    };
    for (const path of Object.values(stray)) writeFileSync(path, 'leftover');
    utimesSync(stray.orphan, old, old);
    utimesSync(stray.temporary, old, old);

    await service.restart();
    assert.equal(existsSync(stray.orphan), false, 'an old file no texture names is removed');
    assert.equal(existsSync(stray.temporary), false, 'an old temporary file is removed');
    assert.equal(existsSync(stray.young), true, 'a young file may be an upload in flight elsewhere: kept');
    assert.equal((await service.call('GET', `/api/skin/cloak/${skin.uuid}`)).status, 200, 'live textures stay');
    unlinkSync(stray.young);
  });

  it('lets a player rename, reflag, link a cape to and delete only their own skins', async () => {
    const player = await service.registerPlayer();
    const other = await service.registerPlayer();
    const skin = (await service.upload('/api/home/skins', player.token, {}, skinFile('classic'))).body.data;
    const renamed = await service.call('PATCH', `/api/home/skins/${skin.uuid}`, {
      token: player.token,
      body: { name: 'Renamed', slim: true },
    });
    assert.equal(renamed.status, 200);
    assert.equal(renamed.body.data.name, 'Renamed');
    assert.equal(renamed.body.data.slim, true);
    assert.equal(
      (await service.call('PATCH', `/api/home/skins/${skin.uuid}`, { token: player.token, body: { nmae: 'typo' } })).status,
      400,
    );
    assert.equal((await service.call('PATCH', `/api/home/skins/${skin.uuid}`, { token: player.token, body: { name: '' } })).status, 400);

    const cape = (await uploadCape({ name: 'Founder' })).body.data;
    const unowned = await service.call('PATCH', `/api/home/skins/${skin.uuid}`, { token: player.token, body: { cloakid: cape.uuid } });
    assert.equal(unowned.status, 400);
    assert.match(unowned.body.msg, /cloakid/);
    await service.call('POST', `/api/admin/user/cape/${player.username}`, { token: ownerToken, body: { cape: [cape.uuid] } });
    const linked = await service.call('PATCH', `/api/home/skins/${skin.uuid.toUpperCase()}`, {
      token: player.token,
      body: { cloakid: cape.uuid },
    });
    assert.equal(linked.status, 200);
    assert.equal(linked.body.data.cloak_id, cape.uuid);
    const home = (await service.call('GET', '/api/home', { token: player.token })).body.data;
    assert.deepEqual(home.Skins[0], { uuid: skin.uuid, name: 'Renamed', cloak_id: cape.uuid });
    assert.deepEqual(home.Capes, [{ Id: cape.uuid, Name: 'Founder' }]);
    // GET /api/home reads the lists with the session (one statement); the admin view reads them on their own.
    const { Id, Perms, OwnMaxProfiles, Passkeys, ReviewExempt, Chat, ...adminView } = (
      await service.call('GET', `/api/admin/user/${player.username}`, { token: ownerToken })
    ).body.data;
    assert.deepEqual(home, adminView);
    assert.equal(ReviewExempt, false);
    assert.equal(Chat, true);

    for (const [method, body] of [
      ['PATCH', { name: 'stolen' }],
      ['DELETE', undefined],
    ] as const) {
      assert.equal(
        (await service.call(method, `/api/home/skins/${skin.uuid}`, { token: other.token, body })).status,
        404,
        `${method} of another's skin`,
      );
    }
    const deleted = await service.call('DELETE', `/api/home/skins/${skin.uuid}`, { token: player.token });
    assert.deepEqual(deleted.body.data, { uuid: skin.uuid });
    assert.equal((await service.call('GET', '/api/home', { token: player.token })).body.data.Selected_Skin, '');
    assert.equal((await service.call('DELETE', `/api/home/skins/${skin.uuid}`, { token: player.token })).status, 404);
  });

  it("selects a skin and a cape through PATCH /api/home, only the player's own", async () => {
    const player = await service.registerPlayer();
    const other = await service.registerPlayer();
    const mine = (await service.upload('/api/home/skins', player.token, {}, skinFile('classic'))).body.data;
    const second = (await service.upload('/api/home/skins', player.token, {}, skinFile('slim'))).body.data;
    const theirs = (await service.upload('/api/home/skins', other.token, {}, skinFile('classic'))).body.data;
    const cape = (await uploadCape({ owners: String(await userId(player.username)) })).body.data;
    const notMine = (await uploadCape({})).body.data;

    const select = (body: object) => service.call('PATCH', '/api/home', { token: player.token, body });
    assert.equal((await select({ selected_skin: theirs.uuid })).status, 400);
    assert.equal((await select({ selected_cape: notMine.uuid })).status, 400);
    const selected = await select({ selected_skin: second.uuid, selected_cape: cape.uuid });
    assert.equal(selected.status, 200);
    assert.equal(selected.body.data.Selected_Skin, second.uuid);
    const capeId = (await service.db.selectFrom('capes').select('id').where('uuid', '=', cape.uuid).executeTakeFirstOrThrow()).id;
    assert.equal(selected.body.data.Selected_Cape, capeId);
    const capes = (await service.call('GET', '/api/home/capes', { token: player.token })).body.data;
    assert.deepEqual(
      capes.map((c: { uuid: string; selected: boolean }) => [c.uuid, c.selected]),
      [[cape.uuid, true]],
    );
    const none = await select({ selected_skin: '', selected_cape: '' });
    assert.equal(none.body.data.Selected_Skin, '');
    assert.equal(none.body.data.Selected_Cape, 0);
    assert.ok(mine.uuid);
  });

  it('uploads capes with owners given three ways, lists and deletes them', async () => {
    const [a, b, c] = [await service.registerPlayer(), await service.registerPlayer(), await service.registerPlayer()];
    const [idA, idB, idC] = [await userId(a.username), await userId(b.username), await userId(c.username)];
    const repeated = await uploadCape({ name: 'Repeated', owners: [String(idA), String(idB)] });
    assert.equal(repeated.status, 200);
    assert.deepEqual(repeated.body.data.owners, [idA, idB]);
    assert.match(repeated.body.data.url, /^http:\/\/skins\.test\/api\/skin\/standart\/cape\/[0-9a-f-]{36}$/);
    assert.deepEqual((await uploadCape({ owners: JSON.stringify([idC]) })).body.data.owners, [idC]);
    assert.deepEqual((await uploadCape({ owners: `${idA}, ${idC}` })).body.data.owners, [idA, idC]);
    const unknownOwner = await uploadCape({ owners: '99999' });
    assert.equal(unknownOwner.status, 400);
    assert.match(unknownOwner.body.msg, /99999/);
    assert.equal((await uploadCape({ owners: 'alice' })).status, 400);
    assert.equal((await uploadCape({ name: '' })).status, 400);

    const hd = await uploadCape({}, 'cape-hd-128x64');
    assert.equal(hd.status, 200);
    const legacy = decodePng(fixture('capes/cape.png'));
    const small = { width: 22, height: 17, data: new Uint8Array(22 * 17 * 4) };
    for (let y = 0; y < 17; y += 1) small.data.set(legacy.data.subarray(y * 64 * 4, y * 64 * 4 + 22 * 4), y * 22 * 4);
    const padded = await service.upload(
      '/api/admin/user/cape/upload',
      ownerToken,
      { name: 'Old' },
      capeFile('old', encodeVariant(small, { colourType: 6, interlaced: false })),
    );
    assert.equal(padded.status, 200, padded.body.msg);
    const paddedFile = decodePng((await service.call('GET', `/api/skin/standart/cape/${padded.body.data.uuid}`)).raw);
    assert.deepEqual([paddedFile.width, paddedFile.height], [64, 32], '22x17 capes are padded to 64x32');

    const page = await service.call('GET', '/api/admin/allcapes?limit=2&offset=1', { token: ownerToken });
    assert.equal(page.status, 200);
    assert.equal(page.body.data.length, 2);
    const total = Number(page.headers['x-total-count']);
    assert.equal(total, await count('capes'));
    assert.equal((await service.call('GET', '/api/admin/allcapes?limit=1001', { token: ownerToken })).status, 400);

    // Deleting takes the grants and the skin links with it.
    const skin = (await service.upload('/api/home/skins', a.token, {}, skinFile('classic'))).body.data;
    await service.call('PATCH', `/api/home/skins/${skin.uuid}`, { token: a.token, body: { cloakid: repeated.body.data.uuid } });
    await service.call('PATCH', '/api/home', { token: a.token, body: { selected_cape: repeated.body.data.uuid } });
    const removed = await service.call('DELETE', '/api/admin/user/cape/upload', {
      token: ownerToken,
      body: { capeid: repeated.body.data.uuid },
    });
    assert.equal(removed.status, 200);
    assert.deepEqual(removed.body.data, { uuid: repeated.body.data.uuid });
    const home = (await service.call('GET', '/api/home', { token: a.token })).body.data;
    assert.equal(home.Selected_Cape, 0);
    assert.deepEqual(home.Capes.map((cape: { Id: string }) => cape.Id).includes(repeated.body.data.uuid), false);
    assert.equal(home.Skins.find((s: { uuid: string }) => s.uuid === skin.uuid).cloak_id, '');
    assert.equal(
      (await service.call('DELETE', '/api/admin/user/cape/upload', { token: ownerToken, body: { capeid: repeated.body.data.uuid } }))
        .status,
      404,
    );
  });

  it('replaces the capes a user owns, by id, UUID or username', async () => {
    const player = await service.registerPlayer();
    const id = await userId(player.username);
    const uuid = (await service.call('GET', '/api/home', { token: player.token })).body.data.Uuid;
    const [first, second] = [(await uploadCape({ name: 'First' })).body.data, (await uploadCape({ name: 'Second' })).body.data];
    const byName = await service.call('POST', `/api/admin/user/cape/${player.username}`, {
      token: ownerToken,
      body: { cape: [first.uuid, second.uuid] },
    });
    assert.equal(byName.status, 200);
    assert.deepEqual(byName.body.data, { id, capes: [first.uuid, second.uuid] });
    await service.call('PATCH', '/api/home', { token: player.token, body: { selected_cape: first.uuid } });
    const byUuid = await service.call('POST', `/api/admin/user/cape/${uuid.replace(/-/g, '').toUpperCase()}`, {
      token: ownerToken,
      body: { user: id, cape: [second.uuid] },
    });
    assert.deepEqual(byUuid.body.data, { id, capes: [second.uuid] });
    assert.equal(
      (await service.call('GET', '/api/home', { token: player.token })).body.data.Selected_Cape,
      0,
      'a cape taken away is unselected',
    );
    const byId = await service.call('POST', `/api/admin/user/cape/${id}`, { token: ownerToken, body: { cape: [] } });
    assert.deepEqual(byId.body.data, { id, capes: [] });

    assert.equal(
      (await service.call('POST', `/api/admin/user/cape/${id}`, { token: ownerToken, body: { user: id + 1, cape: [] } })).status,
      400,
    );
    assert.equal(
      (
        await service.call('POST', `/api/admin/user/cape/${id}`, {
          token: ownerToken,
          body: { cape: ['00000000-0000-4000-8000-000000000000'] },
        })
      ).status,
      400,
    );
    assert.equal((await service.call('POST', '/api/admin/user/cape/nobody_at_all', { token: ownerToken, body: { cape: [] } })).status, 404);
  });

  it('wears a selected or linked cape in the game only while the player owns it, whatever the selection says', async () => {
    // The end state of a race: the player's choice was checked against ownership, then an admin took the cape away,
    // then the choice was written. The ownership rows go as the admin's removal takes them; the choice stays.
    const player = await service.registerPlayer();
    const id = await userId(player.username);
    const uuid = (await service.call('GET', '/api/home', { token: player.token })).body.data.Uuid;
    const [selected, linked] = [
      (await uploadCape({ owners: String(id) })).body.data,
      (await uploadCape({ owners: String(id) }, 'cape-hd-128x64')).body.data,
    ];
    const skin = (await service.upload('/api/home/skins', player.token, {}, skinFile('classic'))).body.data;
    await service.call('PATCH', `/api/home/skins/${skin.uuid}`, { token: player.token, body: { cloakid: linked.uuid } });
    await service.call('PATCH', '/api/home', { token: player.token, body: { selected_cape: selected.uuid } });
    /** The cape in the game's profile textures, which the game login reads from the database at every request. */
    const worn = async () => {
      const profile = await service.call('GET', `/api/yggdrasil/sessionserver/session/minecraft/profile/${uuid.replace(/-/g, '')}`);
      const textures = JSON.parse(Buffer.from(profile.body.properties[0].value, 'base64').toString('utf8')).textures;
      return textures.CAPE?.url.split('/').at(-1);
    };
    const digestOf = async (cape: { uuid: string }) =>
      (await service.db.selectFrom('capes').select('texture_digest').where('uuid', '=', cape.uuid).executeTakeFirstOrThrow())
        .texture_digest;
    const takeAway = async (cape: { uuid: string }) =>
      service.db
        .deleteFrom('cape_owners')
        .where('user_id', '=', id)
        .where('cape_id', '=', (eb) => eb.selectFrom('capes').select('id').where('uuid', '=', cape.uuid))
        .execute();
    assert.equal(await worn(), await digestOf(linked), 'the skin’s linked cape first');
    await takeAway(linked);
    assert.equal(await worn(), await digestOf(selected), 'a linked cape no longer owned is not worn');
    await takeAway(selected);
    assert.equal(await worn(), undefined, 'a selected cape no longer owned is not worn');
  });

  it('lets moderators read and admins edit skins, and records every change', async () => {
    const player = await service.registerPlayer();
    const moderator = await service.registerPlayer();
    const admin = await service.registerPlayer();
    await setPerms(moderator.username, 1);
    await setPerms(admin.username, 2);
    const skin = (await service.upload('/api/home/skins', player.token, {}, skinFile('classic'))).body.data;

    assert.equal((await service.call('GET', '/api/admin/skins', { token: player.token })).status, 403);
    assert.equal((await service.call('GET', '/api/admin/skins')).status, 401);
    const list = await service.call('GET', '/api/admin/skins?limit=1000', { token: moderator.token });
    assert.equal(list.status, 200);
    assert.equal(Number(list.headers['x-total-count']), await count('skins'));
    assert.ok(list.body.data.some((record: { uuid: string }) => record.uuid === skin.uuid));

    const ofUser = await service.call(
      'GET',
      `/api/admin/users/skin/${(await service.call('GET', '/api/home', { token: player.token })).body.data.Uuid}`,
      { token: moderator.token },
    );
    assert.deepEqual(
      ofUser.body.data.map((record: { uuid: string; selected: boolean }) => [record.uuid, record.selected]),
      [[skin.uuid, true]],
    );

    assert.equal(
      (await service.call('PATCH', `/api/admin/skin/${skin.uuid}`, { token: moderator.token, body: { name: 'x' } })).status,
      403,
    );
    const edited = await service.call('PATCH', `/api/admin/skin/${skin.uuid}`, {
      token: admin.token,
      body: { name: 'Moderated', hd: true, slim: true },
    });
    assert.equal(edited.status, 200);
    assert.deepEqual([edited.body.data.name, edited.body.data.hd, edited.body.data.slim], ['Moderated', true, true]);
    const cape = (await uploadCape({})).body.data;
    assert.equal(
      (await service.call('PATCH', `/api/admin/skin/${skin.uuid}`, { token: admin.token, body: { cloakid: cape.uuid } })).status,
      400,
      'a cape the owner lacks',
    );
    assert.equal((await service.call('PATCH', `/api/admin/skin/${skin.uuid}`, { token: admin.token, body: { bogus: 1 } })).status, 400);
    assert.equal(
      (await service.call('PATCH', '/api/admin/skin/00000000-0000-4000-8000-000000000000', { token: admin.token, body: { name: 'x' } }))
        .status,
      404,
    );

    const actions = (
      await service.db
        .selectFrom('audit_log')
        .select('action')
        .where('target_id', '=', await userId(player.username))
        .execute()
    ).map((row) => row.action);
    assert.ok(actions.includes('skin.upload'));
    assert.ok(actions.includes('skin.admin_update'));
    const capeUploads = await service.db.selectFrom('audit_log').select(['iss', 'action']).where('action', '=', 'cape.upload').execute();
    assert.ok(capeUploads.length > 0);
    assert.equal(capeUploads[0]!.iss, OWNER.username);
  });

  it("lets an admin delete a player's skin as moderation: the owner mailed, audited, the texture freed, unselected", async () => {
    const player = await service.registerPlayer();
    const moderator = await service.registerPlayer();
    const admin = await service.registerPlayer();
    const otherAdmin = await service.registerPlayer();
    await setPerms(moderator.username, 1);
    await setPerms(admin.username, 2);
    await setPerms(otherAdmin.username, 2);
    const picture = decodePng(fixture('skins/classic.png'));
    picture.data.set([9, 8, 7, 255], 0);
    const skin = (await service.upload('/api/home/skins', player.token, { name: 'Rude' }, skinFile('rude', encodePng(picture)))).body.data;
    const adminsSkin = (await service.upload('/api/home/skins', otherAdmin.token, {}, skinFile('classic'))).body.data;
    const playerId = await userId(player.username);
    const selected = async () =>
      (await service.db.selectFrom('users').select('selected_skin_id').where('id', '=', playerId).executeTakeFirstOrThrow())
        .selected_skin_id;
    assert.notEqual(await selected(), null);

    const listed = await service.call('GET', '/api/admin/skins?limit=1000', { token: moderator.token });
    assert.equal(listed.body.data.find((record: { uuid: string }) => record.uuid === skin.uuid).owner_name, player.username);

    const remove = (token: string, uuid: string, body?: object) => service.call('DELETE', `/api/admin/skin/${uuid}`, { token, body });
    assert.equal((await remove(moderator.token, skin.uuid, {})).status, 403, 'moderators read only');
    assert.equal((await remove(admin.token, adminsSkin.uuid, {})).status, 403, 'not the skin of an equal');
    const tooLong = await remove(admin.token, skin.uuid, { reason: 'x'.repeat(501) });
    assert.equal(tooLong.status, 400);
    assert.equal((await remove(admin.token, skin.uuid, { reason: 'x', extra: 1 })).status, 400);
    assert.equal((await service.call('GET', `/api/skin/cloak/${skin.uuid}`)).status, 200, 'nothing changed');

    const removed = await remove(admin.token, skin.uuid, { reason: 'Offensive picture' });
    assert.equal(removed.status, 200);
    assert.deepEqual(removed.body.data, { uuid: skin.uuid });
    assert.equal(await selected(), null, 'unselected');
    assert.equal(textureFiles().filter((file) => file.includes(skin.digest)).length, 0, 'the texture file is freed');
    assert.equal((await service.call('GET', `/api/skin/cloak/${skin.uuid}`)).status, 404);
    const audit = await service.db
      .selectFrom('audit_log')
      .select(['iss', 'target_id', 'details'])
      .where('action', '=', 'skin.moderate_delete')
      .where('target_id', '=', playerId)
      .executeTakeFirstOrThrow();
    assert.equal(audit.iss, admin.username);
    assert.deepEqual(JSON.parse(audit.details!), { skin: skin.uuid, name: 'Rude', reason: 'Offensive picture' });
    const mail = await service.mailbox.waitFor((message) => mailTo(player.mail)(message) && /removed/.test(message.subject ?? ''));
    assert.equal(mail.subject, 'Your skin "Rude" was removed');
    assert.match(mail.text ?? '', /Reason: Offensive picture/);
    assert.equal((await remove(admin.token, skin.uuid, {})).status, 404, 'gone');

    // Without a body (and so without a reason) as well.
    const second = (await service.upload('/api/home/skins', player.token, { name: 'Second' }, skinFile('classic'))).body.data;
    assert.equal((await service.call('DELETE', `/api/admin/skin/${second.uuid}`, { token: ownerToken })).status, 200);
    const plain = await service.mailbox.waitFor((message) => mailTo(player.mail)(message) && /Second/.test(message.subject ?? ''));
    assert.match(plain.text ?? '', /No reason was given/);
  });

  it('keeps an admin off the skins and capes of users at or above their level, but lets them give capes (L5)', async () => {
    const admin = await service.registerPlayer();
    await setPerms(admin.username, 2);
    const owner = await service.registerPlayer();
    await setPerms(owner.username, 3);
    const ownerId = await userId(owner.username);
    const skin = (await service.upload('/api/home/skins', owner.token, { name: 'Mine' }, skinFile('classic'))).body.data;
    const [kept, given] = [
      (await uploadCape({ name: 'Kept', owners: String(ownerId) })).body.data,
      (await uploadCape({ name: 'Given' })).body.data,
    ];
    const capesOf = async () =>
      (await service.db.selectFrom('cape_owners').select('cape_id').where('user_id', '=', ownerId).execute()).length;

    const edit = await service.call('PATCH', `/api/admin/skin/${skin.uuid}`, {
      token: admin.token,
      body: { name: 'renamed by admin', slim: true },
    });
    assert.equal(edit.status, 403);
    assert.match(edit.body.msg, /at or above your own level/);
    const taken = await service.call('POST', `/api/admin/user/cape/${ownerId}`, { token: admin.token, body: { cape: [] } });
    assert.equal(taken.status, 403);
    assert.equal(
      (await service.call('DELETE', '/api/admin/user/cape/upload', { token: admin.token, body: { capeid: kept.uuid } })).status,
      403,
    );
    const stored = await service.db.selectFrom('skins').select(['name', 'slim']).where('uuid', '=', skin.uuid).executeTakeFirstOrThrow();
    assert.deepEqual([stored.name, stored.slim, await capesOf()], ['Mine', 0, 1], 'nothing changed');

    const give = await service.call('POST', `/api/admin/user/cape/${ownerId}`, {
      token: admin.token,
      body: { cape: [kept.uuid, given.uuid] },
    });
    assert.equal(give.status, 200, 'giving a cape is open to admins');
    assert.equal(await capesOf(), 2);
    assert.equal(
      (await service.call('PATCH', `/api/admin/skin/${skin.uuid}`, { token: ownerToken, body: { name: 'by an owner' } })).status,
      200,
    );
    // The rule is about another account's things: an admin's own skin and capes stay theirs to edit here too.
    const adminId = await userId(admin.username);
    const own = (await service.upload('/api/home/skins', admin.token, { name: 'Own' }, skinFile('classic'))).body.data;
    const ownEdit = await service.call('PATCH', `/api/admin/skin/${own.uuid}`, { token: admin.token, body: { name: 'renamed' } });
    assert.equal(ownEdit.status, 200, JSON.stringify(ownEdit.body));
    assert.equal(
      (await service.call('POST', `/api/admin/user/cape/${adminId}`, { token: admin.token, body: { cape: [given.uuid] } })).status,
      200,
    );
    assert.equal((await service.call('POST', `/api/admin/user/cape/${adminId}`, { token: admin.token, body: { cape: [] } })).status, 200);
  });

  it('names the owners of every cape in the admin list', async () => {
    const player = await service.registerPlayer();
    const id = await userId(player.username);
    const cape = (await uploadCape({ name: 'Named', owners: String(id) })).body.data;
    const list = await service.call('GET', '/api/admin/allcapes?limit=1000', { token: ownerToken });
    const record = list.body.data.find((entry: { uuid: string }) => entry.uuid === cape.uuid);
    assert.deepEqual(record.owner_users, [{ id, username: player.username }]);
  });
});

describeEachDatabase('textures kept in the database', (kind) => {
  let service: TestService;
  before(async () => {
    service = await startService(kind, { settings: { textureStore: 'database' } });
  });
  after(async () => service?.close());

  it('stores and serves skins with no file on disk', async () => {
    const player = await service.registerPlayer();
    const skin = (await service.upload('/api/home/skins', player.token, {}, skinFile('classic'))).body.data;
    const served = await service.call('GET', `/api/skin/cloak/${skin.uuid}`);
    assert.equal(served.status, 200);
    assert.deepEqual(decodePng(served.raw).data, decodePng(fixture('skins/classic.png')).data);
    assert.throws(() => readdirSync(join(service.settings.dataDir, 'textures')), /ENOENT/);
  });

  it('refuses the 101st skin of a player and stores nothing of it', () => uploadPastTheSkinLimit(service));
});
