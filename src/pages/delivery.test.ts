// How the built pages travel: each file compressed the way the browser accepts (brotli, else gzip, else as it is),
// bytes that decompress to the built file, Vary for caches, and caching (hashed files for good, index.html asked
// again every time). Only the page routes are involved, no database: it runs on SQLite alone.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { startService, type Reply, type TestService } from '../../test/support/service.ts';
import { DEFAULT_WEB_DIR } from './routes.ts';

const CHROMIUM_ACCEPT_ENCODING = 'gzip, deflate, br, zstd';

const built = (path: string) => readFileSync(join(DEFAULT_WEB_DIR, path));
const assetNames = readdirSync(join(DEFAULT_WEB_DIR, 'assets')).filter((name) => !/\.(br|gz)$/.test(name));
/** What the build compresses (web/vite.config.ts): text. Images (the front page's default skin) are sent as they are. */
const compressible = (url: string) => !/\.png$/.test(url);
const CONTENT_TYPES: [RegExp, RegExp][] = [
  [/\.js$/, /^text\/javascript/],
  [/\.css$/, /^text\/css/],
  [/\.png$/, /^image\/png$/],
];

function decoded(reply: Reply): Buffer {
  const coding = reply.headers['content-encoding'];
  if (coding === 'br') return brotliDecompressSync(reply.raw);
  if (coding === 'gzip') return gunzipSync(reply.raw);
  assert.equal(coding, undefined, `unexpected content-encoding ${String(coding)}`);
  return reply.raw;
}

describe('page delivery: compression and caching', () => {
  let service: TestService;
  before(async () => {
    service = await startService('sqlite');
  });
  after(() => service?.close());

  const get = (url: string, acceptEncoding?: string) =>
    service.call('GET', url, acceptEncoding === undefined ? {} : { headers: { 'accept-encoding': acceptEncoding } });

  it('serves every built file in the coding the browser takes, decompressing to the built bytes', async () => {
    assert.ok(assetNames.some((name) => name.endsWith('.js')) && assetNames.some((name) => name.endsWith('.css')));
    const files = [
      { url: '/login', original: built('index.html') },
      ...assetNames.map((name) => ({ url: `/assets/${name}`, original: built(`assets/${name}`) })),
    ];
    const cases: [string | undefined, string | undefined][] = [
      [CHROMIUM_ACCEPT_ENCODING, 'br'],
      ['br', 'br'],
      ['gzip', 'gzip'],
      ['br;q=0, gzip', 'gzip'],
      ['*', 'br'],
      ['deflate, identity', undefined],
      ['br;q=0, gzip;q=0', undefined],
      [undefined, undefined],
    ];
    for (const { url, original } of files) {
      for (const [acceptEncoding, coding] of cases) {
        const reply = await get(url, acceptEncoding);
        const what = `${url} with Accept-Encoding ${acceptEncoding ?? '(none)'}`;
        const expected = compressible(url) ? coding : undefined;
        assert.equal(reply.status, 200, what);
        assert.equal(reply.headers['content-encoding'], expected, what);
        assert.equal(reply.headers.vary, compressible(url) ? 'accept-encoding' : undefined, what);
        assert.equal(Number(reply.headers['content-length']), reply.raw.length, what);
        assert.ok(decoded(reply).equals(original), `${what} decompresses to the built file`);
        if (expected) assert.ok(reply.raw.length < original.length, `${what} is smaller than the file`);
      }
    }
  });

  it('caches hashed files for good and asks again for index.html, with the CSP on every page answer', async () => {
    for (const name of assetNames) {
      const reply = await get(`/assets/${name}`, CHROMIUM_ACCEPT_ENCODING);
      assert.equal(reply.headers['cache-control'], 'public, max-age=31536000, immutable', name);
      const type = CONTENT_TYPES.find(([extension]) => extension.test(name));
      assert.ok(type, `${name}: a kind of file the build makes`);
      assert.match(String(reply.headers['content-type']), type[1], name);
    }
    for (const [url, status] of [
      ['/login', 200],
      ['/home', 200],
      ['/no/such/page', 404],
    ] as const) {
      const reply = await get(url, CHROMIUM_ACCEPT_ENCODING);
      assert.equal(reply.status, status, url);
      assert.equal(reply.headers['content-encoding'], 'br', url);
      assert.equal(reply.headers['cache-control'], 'no-cache', url);
      assert.match(String(reply.headers['content-security-policy']), /default-src 'self'/, url);
      assert.match(String(reply.headers['content-type']), /^text\/html/, url);
      assert.ok(decoded(reply).equals(built('index.html')), url);
    }
    const slashed = await get('/login/', CHROMIUM_ACCEPT_ENCODING);
    assert.equal(slashed.status, 301);
    assert.equal(slashed.headers.location, '/login');
  });

  it('answers HEAD with the length of the coded body, and has no address for the compressed copies', async () => {
    const script = assetNames.find((name) => name.endsWith('.js'))!;
    const head = await service.call('HEAD', `/assets/${script}`, { headers: { 'accept-encoding': 'gzip' } });
    assert.equal(head.status, 200);
    assert.equal(head.headers['content-encoding'], 'gzip');
    assert.equal(Number(head.headers['content-length']), readFileSync(join(DEFAULT_WEB_DIR, 'assets', `${script}.gz`)).length);
    assert.equal((await get(`/assets/${script}.br`)).status, 404);
    assert.equal((await get(`/assets/${script}.gz`)).status, 404);
  });

  it('answers a path of many slashes in time linear in its length', async () => {
    // The fastest of a few answers, so that a busy machine does not decide; quadratic work makes the 100 times
    // longer path take some 10,000 times longer, linear work well under the generous 20 times allowed here.
    const fastestAnswer = async (url: string) => {
      let fastest = Infinity;
      for (let round = 0; round < 5; round++) {
        const started = performance.now();
        const reply = await get(url);
        fastest = Math.min(fastest, performance.now() - started);
        assert.equal(reply.status, 404);
      }
      return fastest;
    };
    const slashes = (count: number) => `/${'/'.repeat(count)}a`;
    const short = await fastestAnswer(slashes(160));
    const long = await fastestAnswer(slashes(16_300));
    assert.ok(long < 20 * Math.max(short, 1), `${long.toFixed(1)} ms for 16 KB against ${short.toFixed(1)} ms for 160 bytes`);
  });
});
