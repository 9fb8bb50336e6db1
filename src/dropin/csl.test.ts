// CustomSkinLoader's CustomSkinAPI (contract section 13): the profile document and the texture files.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, it } from 'node:test';
import { describeEachDatabase } from '../../test/support/databases.ts';
import { capeFile, skinFile } from '../../test/support/fixtures.ts';
import { OWNER, startService, type TestService } from '../../test/support/service.ts';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describeEachDatabase('CustomSkinAPI', (kind) => {
  let service: TestService;
  let ownerToken: string;
  before(async () => {
    service = await startService(kind, { settings: { owner: OWNER } });
    ownerToken = await service.ownerToken();
  });
  after(async () => service?.close());
  const get = (url: string, headers?: Record<string, string>) => service.call('GET', url, { headers });
  const player = async (skin: string | null, options: { slim?: boolean; cape?: boolean } = {}) => {
    const registered = await service.registerPlayer();
    const fields: Record<string, string> = options.slim === undefined ? {} : { slim: String(options.slim) };
    const uploaded = skin ? (await service.upload('/api/home/skins', registered.token, fields, skinFile(skin))).body.data : null;
    let cape: { uuid: string; digest: string } | null = null;
    if (options.cape) {
      const { id } = await service.db
        .selectFrom('users')
        .select('id')
        .where('username', '=', registered.username)
        .executeTakeFirstOrThrow();
      cape = (await service.upload('/api/admin/user/cape/upload', ownerToken, { name: 'Cape', owners: String(id) }, capeFile('cape'))).body
        .data;
      await service.call('PATCH', '/api/home', { token: registered.token, body: { selected_cape: cape!.uuid } });
    }
    return { ...registered, skin: uploaded as { uuid: string; digest: string } | null, cape };
  };

  it('gives {username as stored, skins: {default: hash}, cape: hash}; the name in any letter case', async () => {
    const owner = await player('classic', { cape: true });
    const reply = await get(`/csl/${owner.username.toUpperCase()}.json`);
    assert.equal(reply.status, 200);
    assert.match(String(reply.headers['content-type']), /^application\/json/);
    assert.deepEqual(reply.body, { username: owner.username, skins: { default: owner.skin!.digest }, cape: owner.cape!.digest });
    assert.deepEqual(Object.keys(reply.body), ['username', 'skins', 'cape']);
    assert.equal(Number(reply.headers['content-length']), reply.raw.length, 'Content-Length, as CustomSkinAPI asks');
    assert.match(String(reply.headers['cache-control']), /public/);
  });

  it('names a slim skin slim (exactly one key), leaves cape out without one, and gives skins {} without a skin', async () => {
    const slim = await player('slim');
    assert.deepEqual((await get(`/csl/${slim.username}.json`)).body, { username: slim.username, skins: { slim: slim.skin!.digest } });
    const declaredClassic = await player('slim', { slim: false });
    assert.deepEqual((await get(`/csl/${declaredClassic.username}.json`)).body.skins, { default: declaredClassic.skin!.digest });
    const bare = await player(null, { cape: true });
    assert.deepEqual((await get(`/csl/${bare.username}.json`)).body, { username: bare.username, skins: {}, cape: bare.cape!.digest });
  });

  it('404 for a name nobody has, a UUID, or anything but {name}.json', async () => {
    const someone = await player('classic');
    const uuid = (await service.call('GET', '/api/home', { token: someone.token })).body.data.Uuid as string;
    for (const path of ['/csl/nobody_here.json', `/csl/${uuid}.json`, `/csl/${someone.username}`, `/csl/${someone.username}.xml`]) {
      const reply = await get(path);
      assert.equal(reply.status, 404, path);
      assert.deepEqual({ ...reply.body, msg: '' }, { error: true, msg: '', url: null, data: {} });
    }
  });

  it('serves the textures exactly like /textures/{hash}: same bytes, same headers, same errors', async () => {
    const owner = await player('hd-128', { cape: true });
    for (const digest of [owner.skin!.digest, owner.cape!.digest]) {
      const [csl, own] = await Promise.all([get(`/csl/textures/${digest}`), get(`/textures/${digest}`)]);
      assert.equal(csl.status, 200);
      assert.deepEqual(csl.raw, own.raw);
      assert.equal(sha256(csl.raw), digest, 'the address is the SHA-256 of the bytes');
      for (const header of ['content-type', 'content-length', 'etag', 'cache-control']) {
        assert.equal(csl.headers[header], own.headers[header], header);
      }
      const again = await get(`/csl/textures/${digest}`, { 'if-none-match': String(csl.headers.etag) });
      assert.equal(again.status, 304);
    }
    assert.deepEqual(
      (await get(`/csl/textures/${owner.skin!.digest}`)).raw,
      (await get(`/skins/${owner.username}`)).raw,
      'the skin the profile names is the one the images show',
    );
    for (const hash of ['0'.repeat(64), 'not-a-hash', 'A'.repeat(64)]) {
      const [csl, own] = await Promise.all([get(`/csl/textures/${hash}`), get(`/textures/${hash}`)]);
      assert.equal(csl.status, own.status, hash);
      assert.ok(csl.status === 404 || csl.status === 400, hash);
      assert.deepEqual({ ...csl.body, msg: '' }, { ...own.body, msg: '' });
    }
    assert.equal((await get(`/csl/textures/${'0'.repeat(64)}`)).status, 404);
  });

  it('ETag and 304 on the profile; ignores query parameters; follows a change at once', async () => {
    const owner = await player('classic');
    const first = await get(`/csl/${owner.username}.json`);
    const etag = String(first.headers.etag);
    assert.match(etag, /^".+"$/);
    assert.equal((await get(`/csl/${owner.username}.json`, { 'if-none-match': etag })).status, 304);
    const junk = await get(`/csl/${owner.username}.json?t=${Date.now()}&_=1`);
    assert.equal(junk.status, 200);
    assert.deepEqual(junk.body, first.body);
    const slim = (await service.upload('/api/home/skins', owner.token, {}, skinFile('slim'))).body.data;
    await service.call('PATCH', '/api/home', { token: owner.token, body: { selected_skin: slim.uuid } });
    const changed = await get(`/csl/${owner.username}.json`, { 'if-none-match': etag });
    assert.equal(changed.status, 200);
    assert.deepEqual(changed.body.skins, { slim: slim.digest });
    assert.equal(sha256((await get(`/csl/textures/${slim.digest}`)).raw), slim.digest);
  });
});
