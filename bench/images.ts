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

/**
 * Issue 17's figure: the drop-in URLs of other services are answered from the same caches as the service's own
 * image endpoints, so each is measured against the own endpoint that draws the same image, on the same server.
 * The Crafatar avatar carries a different cache-busting parameter on every request, as pages add them.
 */
export async function runDropInBench(seconds = 3, rounds = 3): Promise<Figure[]> {
  const server = await startServerProcess('src/main.ts', BENCH_OWNER);
  try {
    await uploadFixtureSkin(server.url, await ownerToken(server.url), 'classic');
    const name = BENCH_OWNER.OWNER_USERNAME;
    let request = 0;
    const pairs = [
      {
        subject: { name: 'GET /renders/head/{name}?scale=5 (Crafatar-style, 3D head 100 px)', path: `/renders/head/${name}?scale=5` },
        reference: {
          name: 'GET /api/skin/head?type=player&size=100&overlay=false',
          path: `/api/skin/head/${name}?type=player&size=100&overlay=false`,
        },
      },
      {
        subject: {
          name: 'GET /avatars/{name}?size=100&overlay&_={new every request} (Crafatar-style, cache-busting)',
          path: `/avatars/${name}?size=100&overlay`,
          nextPath: () => `/avatars/${name}?size=100&overlay&_=${request++}`,
        },
        reference: { name: 'GET /api/skin/head?size=100', path: `/api/skin/head/${name}?size=100` },
      },
      {
        subject: { name: 'GET /helm/{name}/100.png (Minotar-style)', path: `/helm/${name}/100.png` },
        reference: { name: 'GET /api/skin/head?size=100', path: `/api/skin/head/${name}?size=100` },
      },
    ];
    const figures: Figure[] = [];
    for (const { subject, reference } of pairs) {
      for (const path of [subject.path, reference.path]) {
        const reply = await fetch(`${server.url}${path}`); // rendered once; every request after comes from the caches
        if (reply.status !== 200) throw new Error(`${path} answered ${reply.status}`);
      }
      const comparison = await compareLoad(
        { url: `${server.url}${subject.path}`, seconds, server, nextPath: 'nextPath' in subject ? subject.nextPath : undefined },
        { url: `${server.url}${reference.path}`, seconds, server },
        rounds,
      );
      figures.push(...comparisonFigures(subject.name, reference.name, comparison, '>= 90%'));
    }
    return figures;
  } finally {
    await server.stop();
  }
}
