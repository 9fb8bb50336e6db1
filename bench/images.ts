// Issue 3's HTTP figure: cached image requests per second against a static 1 KB PNG served from memory by Fastify.
import { BENCH_OWNER, compareLoad, comparisonFigures, ownerToken, startServerProcess, uploadFixtureSkin, type Figure } from './lib.ts';

export async function runImageHttpBench(seconds = 3): Promise<Figure[]> {
  const server = await startServerProcess('src/main.ts', BENCH_OWNER);
  const bare = await startServerProcess('bench/bare-server.ts');
  try {
    await uploadFixtureSkin(server.url, await ownerToken(server.url), 'classic');

    const head = `${server.url}/api/skin/head/${BENCH_OWNER.OWNER_USERNAME}?type=player&size=100`;
    await fetch(head); // renders once; every request after is served from the render cache
    const cached = await compareLoad({ url: head, seconds, server }, { url: `${bare.url}/static.png`, seconds, server: bare });
    return comparisonFigures(
      'GET /api/skin/head (cached 3D head, size 100)',
      'static 1 KB PNG from memory (bare Fastify)',
      cached,
      '>= 80%',
    );
  } finally {
    await server.stop();
    await bare.stop();
  }
}
