// Issue 3's HTTP figure: cached image requests per second against a static 1 KB PNG served from memory by Fastify.
import { readFileSync } from 'node:fs';
import { BENCH_OWNER, ownerToken, compareLoad, comparisonFigures, startServerProcess, type Figure } from './lib.ts';


export async function runImageHttpBench(seconds = 3): Promise<Figure[]> {
  const server = await startServerProcess('src/main.ts', BENCH_OWNER);
  const bare = await startServerProcess('bench/bare-server.ts');
  try {
    const token = await ownerToken(server.url);
    const form = new FormData();
    form.append('skin', new Blob([readFileSync('test/fixtures/skins/classic.png')], { type: 'image/png' }), 'classic.png');
    const uploaded = await fetch(`${server.url}/api/home/skins`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
    if (!uploaded.ok) throw new Error(`skin upload failed: ${uploaded.status}`);

    const head = `${server.url}/api/skin/head/${BENCH_OWNER.OWNER_USERNAME}?type=player&size=100`;
    await fetch(head); // renders once; every request after is served from the render cache
    const cached = await compareLoad({ url: head, seconds, server }, { url: `${bare.url}/static.png`, seconds, server: bare });
    return comparisonFigures('GET /api/skin/head (cached 3D head, size 100)', 'static 1 KB PNG from memory (bare Fastify)', cached, '>= 80%');
  } finally {
    await server.stop();
    await bare.stop();
  }
}
