// A service flooded with 100,000 distinct image URLs, in a process of its own so that its heap is its own:
//   node --expose-gc --import tsx test/support/image-cache-load.ts <sqlite|postgres> <RENDER_CACHE_MB>
// Prints one JSON line (ImageCacheLoad): the heap after garbage collection before and after the flood, the
// image caches' bytes and budgets from /metrics, and how many URLs were answered with which status.
import { Agent, get } from 'node:http';
import { decodePng, encodePng } from '../../src/rendering/png.ts';
import type { DatabaseKind } from './databases.ts';
import { fixture, skinFile } from './fixtures.ts';
import { startService } from './service.ts';

const FLOOD_URLS = 100_000;
const PLAYERS = 10;
/** Sizes of the distinct valid renders: every size from 8 up to this (larger ones only cost time to render). */
const LARGEST_SIZE = 160;
/** The first URLs of the flood, sent before the baseline is measured, so that compiling code is not counted. */
const WARM_UP_URLS = 2_000;
const CONNECTIONS = 4;
/**
 * URLs sent from each client address. Uncached renders are limited to 600 a minute per address (contract section
 * 15b): the flood comes from many addresses (X-Forwarded-For, the service trusting the one proxy hop), as a crowd's
 * would, so that it measures the caches rather than the limit.
 */
const URLS_PER_ADDRESS = 400;

export interface HeapFigures {
  heapUsed: number;
  external: number;
  arrayBuffers: number;
}

export interface ImageCacheLoad {
  budgetBytes: number;
  before: HeapFigures;
  after: HeapFigures;
  /** From /metrics after the flood: skinservice_image_cache_bytes and ..._budget_bytes by cache (empty before they existed). */
  cacheBytes: Record<string, number>;
  cacheBudgets: Record<string, number>;
  /** How many junk URLs (unknown parameters) and distinct valid URLs were answered with each status. */
  statuses: { junk: Record<string, number>; valid: Record<string, number> };
  /** One answer to a junk URL, to check its envelope. */
  junkAnswer: unknown;
}

function heap(): HeapFigures {
  for (let round = 0; round < 3; round += 1) global.gc!();
  const { heapUsed, external, arrayBuffers } = process.memoryUsage();
  return { heapUsed, external, arrayBuffers };
}

async function main(kind: DatabaseKind, cacheMegabytes: number) {
  const budgetBytes = cacheMegabytes * 1024 * 1024;
  const service = await startService(kind, { settings: { renderCacheBytes: budgetBytes, trustProxy: true } });
  const players: { uuid: string; username: string }[] = [];
  for (let index = 0; index < PLAYERS; index += 1) {
    const player = await service.registerPlayer();
    // A picture of each player's own (one pixel differs), so that every player's renders are distinct images.
    const picture = decodePng(fixture(index % 2 === 0 ? 'skins/classic.png' : 'skins/slim.png'));
    picture.data.set([index, 0, 0, 255], 0);
    const uploaded = await service.upload('/api/home/skins', player.token, {}, skinFile(`player${index}`, encodePng(picture)));
    if (uploaded.status !== 200) throw new Error(`upload: ${uploaded.status} ${uploaded.body?.msg}`);
    const uuid = (await service.call('GET', '/api/home', { token: player.token })).body.data.Uuid as string;
    players.push({ uuid, username: player.username });
  }

  // Every valid URL names a different image (player x view x type x size) or, for the cloak path, a player's
  // skin file asked for with a different size; the rest carry an unknown parameter.
  const urls: { url: string; junk: boolean }[] = [];
  for (let size = 8; size <= LARGEST_SIZE; size += 1) {
    for (const player of players) {
      for (const view of ['head', 'body']) {
        for (const type of ['skin', 'player'])
          urls.push({ url: `/api/skin/${view}/${player.uuid}?size=${size}&type=${type}`, junk: false });
      }
      urls.push({ url: `/api/skin/cloak/${player.username}?size=${size}`, junk: false });
    }
  }
  for (let index = 0; urls.length < FLOOD_URLS; index += 1) {
    const player = players[index % PLAYERS]!;
    urls.push({ url: `/api/skin/head/${player.uuid}?size=100&x=${index}`, junk: true });
  }
  // Valid and junk URLs mixed, the same order on every run.
  urls.sort((a, b) => hash(a.url) - hash(b.url));

  // Over a socket: app.inject() keeps about 10 KB of every request it made (light-my-request 6.8 on Node 20),
  // which would drown what the caches keep.
  await service.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = service.app.server.address() as { port: number };
  const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const statuses: ImageCacheLoad['statuses'] = { junk: {}, valid: {} };
  let junkAnswer: unknown;
  const clientOf = (index: number) => {
    const address = Math.floor(index / URLS_PER_ADDRESS);
    return `198.18.${address >> 8}.${address & 255}`;
  };
  const send = ({ url, junk }: { url: string; junk: boolean }, index: number) =>
    new Promise<void>((resolve, reject) => {
      get({ host: '127.0.0.1', port, path: url, agent, headers: { 'x-forwarded-for': clientOf(index) } }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const counts = junk ? statuses.junk : statuses.valid;
          counts[response.statusCode!] = (counts[response.statusCode!] ?? 0) + 1;
          if (junk && junkAnswer === undefined) junkAnswer = Buffer.concat(chunks).toString();
          resolve();
        });
      }).on('error', reject);
    });
  const sendAll = async (batch: typeof urls, first: number) => {
    let next = 0;
    const connection = async () => {
      while (next < batch.length) {
        const index = next++;
        await send(batch[index]!, first + index);
      }
    };
    await Promise.all(Array.from({ length: CONNECTIONS }, connection));
  };
  await sendAll(urls.slice(0, WARM_UP_URLS), 0);
  const before = heap();
  await sendAll(urls.slice(WARM_UP_URLS), WARM_UP_URLS);
  const after = heap();

  const cacheBytes: Record<string, number> = {};
  const cacheBudgets: Record<string, number> = {};
  for (const line of (await service.call('GET', '/metrics')).raw.toString().split('\n')) {
    const match = /^skinservice_image_cache_(bytes|budget_bytes)\{cache="(\w+)"\} (\d+)$/.exec(line);
    if (match) (match[1] === 'bytes' ? cacheBytes : cacheBudgets)[match[2]!] = Number(match[3]);
  }
  agent.destroy();
  await service.close();
  const result: ImageCacheLoad = { budgetBytes, before, after, cacheBytes, cacheBudgets, statuses, junkAnswer };
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

/** FNV-1a: a fixed shuffle. */
function hash(text: string) {
  let value = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) value = Math.imul(value ^ text.charCodeAt(index), 0x01000193) >>> 0;
  return value;
}

if (!global.gc) throw new Error('run with node --expose-gc');
await main(process.argv[2] as DatabaseKind, Number(process.argv[3]));
