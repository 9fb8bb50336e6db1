// Before and after in one run: the same request to this checkout's service and to another checkout's (a git worktree
// of an earlier commit), each against the bare route, at a fixed rate in alternating rounds, by server CPU per
// request from /proc. The machine's speed drifts between runs; servers measured side by side drift together.
//   git worktree add /tmp/before <commit> && ln -s "$PWD/node_modules" /tmp/before/node_modules && cp -r web/dist /tmp/before/web/
//   node --import tsx bench/against-checkout.ts /tmp/before [path, /api/home by default]
// The owner of BENCH_OWNER asks; the environment (DATABASE_URL, say) goes to both services.
import { join } from 'node:path';
import { BENCH_OWNER, load, medianOf, ownerToken, startServerProcess, type ServerProcess } from './lib.ts';

const [otherCheckout, path = '/api/home'] = process.argv.slice(2);
if (!otherCheckout) throw new Error('usage: bench/against-checkout.ts <other checkout> [path]');
const RATE = 2000;
const ROUNDS = 7;

const servers: Record<string, ServerProcess> = {
  bare: await startServerProcess('bench/bare-server.ts'),
  other: await startServerProcess(join(otherCheckout, 'src/main.ts'), BENCH_OWNER),
  this: await startServerProcess('src/main.ts', BENCH_OWNER),
};
try {
  const requests = Object.fromEntries(
    await Promise.all(
      Object.entries(servers).map(async ([name, server]) => {
        const headers: Record<string, string> = name === 'bare' ? {} : { authorization: `Bearer ${await ownerToken(server.url)}` };
        const url = name === 'bare' ? `${server.url}/bare` : `${server.url}${path}`;
        return [name, { url, headers, server, seconds: 3, rate: RATE }] as const;
      }),
    ),
  );
  for (const request of Object.values(requests)) await load({ ...request, seconds: 2 }); // warm-up
  const micros: Record<string, number[]> = { bare: [], other: [], this: [] };
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const [name, request] of Object.entries(requests)) micros[name]!.push((await load(request)).cpuMicrosPerRequest!);
  }
  const againstBare = (name: string) => medianOf(micros.bare!.map((bare, round) => bare / micros[name]![round]!));
  for (const name of ['other', 'this']) {
    console.log(
      `${name} checkout, GET ${path}: ${medianOf(micros[name]!).toFixed(0)} us a request (bare route ${medianOf(micros.bare!).toFixed(0)}), ` +
        `bare over it ${(againstBare(name) * 100).toFixed(0)}%`,
    );
  }
  console.log(`this over other: ${medianOf(micros.this!.map((ours, round) => ours / micros.other![round]!)).toFixed(2)}x`);
} finally {
  await Promise.all(Object.values(servers).map((server) => server.stop()));
}
