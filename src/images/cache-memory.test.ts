// 100,000 distinct image URLs must not take the service's memory past RENDER_CACHE_MB: the load runs in a
// process of its own (test/support/image-cache-load.ts), whose heap is measured after garbage collection.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describeEachDatabase } from '../../test/support/databases.ts';
import type { ImageCacheLoad } from '../../test/support/image-cache-load.ts';
import { imageCacheBudgets } from './service.ts';

const CACHE_MB = 4;
const LOAD_SCRIPT = fileURLToPath(new URL('../../test/support/image-cache-load.ts', import.meta.url));

it('shares RENDER_CACHE_MB among the five caches exactly', () => {
  for (const total of [1, 4, 64, 1000, 16 * 1024].map((megabytes) => megabytes * 1024 * 1024).concat([1_000_003])) {
    const { images, textures } = imageCacheBudgets(total);
    const parts = [...Object.values(images), ...Object.values(textures)];
    assert.equal(parts.length, 5);
    assert.equal(
      parts.reduce((sum, part) => sum + part, 0),
      total,
      `${total} bytes`,
    );
    assert.ok(parts.every((part) => Number.isInteger(part) && part > 0));
  }
});

describeEachDatabase('image caches under 100,000 distinct URLs', (kind) => {
  // 100,000 requests: well under a minute on idle cores, but over three minutes once while the machine ran other loads.
  it(`keep the process within RENDER_CACHE_MB=${CACHE_MB}, and refuse unknown parameters`, { timeout: 480_000 }, async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--expose-gc', '--import', 'tsx', LOAD_SCRIPT, kind, String(CACHE_MB)],
      { maxBuffer: 1024 * 1024 },
    );
    const load = JSON.parse(stdout.trim().split('\n').at(-1)!) as ImageCacheLoad;
    const growth = load.after.heapUsed + load.after.external - (load.before.heapUsed + load.before.external);
    const held = Object.values(load.cacheBytes).reduce((sum, bytes) => sum + bytes, 0);
    // Figures for docs/performance.md.
    console.log(`[${kind}] heap+external growth ${mib(growth)} MiB, caches hold ${mib(held)} MiB of ${CACHE_MB} MiB`, load.cacheBytes);

    assert.ok(growth <= load.budgetBytes, `the heap grew by ${mib(growth)} MiB, more than RENDER_CACHE_MB=${CACHE_MB}`);
    assert.deepEqual(Object.keys(load.statuses.junk), ['400'], 'every URL with an unknown parameter is refused');
    assert.deepEqual(Object.keys(load.statuses.valid), ['200']);
    assert.equal(load.statuses.junk[400]! + load.statuses.valid[200]!, 100_000);
    const answer = JSON.parse(load.junkAnswer as string);
    assert.deepEqual({ ...answer, msg: '' }, { error: true, msg: '', url: null, data: {} });
    assert.match(answer.msg, /query parameter "x" is not accepted/);

    assert.deepEqual(Object.keys(load.cacheBudgets).sort(), ['answers', 'decoded', 'files', 'renders', 'resolutions']);
    assert.equal(
      Object.values(load.cacheBudgets).reduce((sum, budget) => sum + budget, 0),
      load.budgetBytes,
    );
    for (const [cache, bytes] of Object.entries(load.cacheBytes)) assert.ok(bytes <= load.cacheBudgets[cache]!, `${cache}: ${bytes} bytes`);
  });
});

const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(2);
