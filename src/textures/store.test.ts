// Removing a texture's file while an upload of the same texture may be committing (several requests or processes).
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { FileTextureStore } from './store.ts';

const digest = 'ab'.repeat(32);
const png = Buffer.from('the bytes of a texture');

function freshStore() {
  const dir = mkdtempSync(join(tmpdir(), 'skinservice-store-'));
  return { store: new FileTextureStore(dir), filesIn: () => readdirSync(join(dir, 'ab')) };
}

describe('texture files', () => {
  it('are removed, leaving nothing behind, when no row refers to them any more', async () => {
    const { store, filesIn } = freshStore();
    await store.write(digest, png);
    await store.remove(digest, async () => false);
    assert.equal(await store.read(digest), null);
    assert.deepEqual(filesIn(), []);
  });

  it('are kept when an upload of the same texture committed a new row before the removal looked', async () => {
    const { store, filesIn } = freshStore();
    await store.write(digest, png);
    await store.remove(digest, async () => true);
    assert.deepEqual(await store.read(digest), png);
    assert.deepEqual(filesIn(), [`${digest}.png`]);
  });

  it('are kept when an upload writes them while the removal is deciding', async () => {
    const { store, filesIn } = freshStore();
    await store.write(digest, png);
    // The removal has looked (no row yet); meanwhile the upload writes the bytes, and commits after the look.
    await store.remove(digest, async () => {
      await store.write(digest, png);
      return false;
    });
    assert.deepEqual(await store.read(digest), png, "the upload's bytes survive the removal");
    assert.deepEqual(filesIn(), [`${digest}.png`]);
  });

  it('being absent already is not an error', async () => {
    const { store } = freshStore();
    await store.remove(digest, async () => assert.fail('nothing to set aside, so nothing to ask'));
  });
});
