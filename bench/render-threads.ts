// Should uncached renders run in worker threads? (issue 36, item 9; docs/performance.md, "Renders on the event loop")
// The same bursts of distinct renders, as a cold page or a crowd asks for them, drawn two ways: on the event loop, one
// render per turn of the loop (what src/images/render-queue.ts does), and by a pool of one worker thread per core
// (the decoded skin sent to the worker, the PNG sent back). For each: CPU time per render of the whole process (all
// threads) and the delay of the event loop meanwhile (perf_hooks.monitorEventLoopDelay: what every other request
// waits). Ratios within one run: the machine's load makes absolute figures drift.
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { decodePng } from '../src/rendering/png.ts';
import { renderImage, type RenderRequest } from '../src/rendering/render.ts';

export interface ThreadRow {
  name: string;
  renders: number;
  loopCpuMsPerRender: number;
  poolCpuMsPerRender: number;
  loopDelayP99Ms: number;
  poolDelayP99Ms: number;
  loopDelayMeanMs: number;
  poolDelayMeanMs: number;
}

const skin = decodePng(readFileSync(new URL('../test/fixtures/skins/classic.png', import.meta.url)));

/** `count` distinct renders (sizes step by one, as a crowd's variants do). */
const burst = (count: number, view: 'head' | 'body', size: number): RenderRequest[] =>
  Array.from({ length: count }, (_, index) => ({ view, type: 'player', size: size + (index % 50), skin, slim: index % 2 === 0 }));

/** On the event loop, one render per turn. */
function onTheLoop(requests: RenderRequest[]): Promise<void> {
  let next = 0;
  return new Promise((resolve) => {
    const turn = () => {
      if (next >= requests.length) return resolve();
      renderImage(requests[next++]!);
      setImmediate(turn);
    };
    setImmediate(turn);
  });
}

function pool(size: number) {
  const workers = Array.from({ length: size }, () => new Worker(new URL('./render-worker.ts', import.meta.url)));
  const run = async (requests: RenderRequest[]) => {
    let next = 0;
    await Promise.all(
      workers.map(
        (worker) =>
          new Promise<void>((resolve) => {
            const send = () => {
              if (next >= requests.length) {
                worker.off('message', send);
                return resolve();
              }
              worker.postMessage(requests[next++]);
            };
            worker.on('message', send);
            send();
          }),
      ),
    );
  };
  return { run, close: () => Promise.all(workers.map((worker) => worker.terminate())) };
}

/** CPU ms of the whole process per render, and the event loop's delay (mean, p99) while `run` draws `count`. */
async function measure(run: () => Promise<void>, count: number) {
  const delay = monitorEventLoopDelay({ resolution: 1 });
  const cpuBefore = process.cpuUsage();
  delay.enable();
  await run();
  delay.disable();
  const cpu = process.cpuUsage(cpuBefore);
  return { cpuMsPerRender: (cpu.user + cpu.system) / 1000 / count, delayP99Ms: delay.percentile(99) / 1e6, delayMeanMs: delay.mean / 1e6 };
}

export async function runRenderThreadBench(rounds = 3): Promise<ThreadRow[]> {
  const workers = pool(availableParallelism());
  try {
    await workers.run(burst(100, 'head', 100)); // warm-up: both ways compile the renderer first
    await onTheLoop(burst(100, 'head', 100));
    const rows: ThreadRow[] = [];
    for (const [name, requests] of [
      ['200 distinct 3D heads of 100 px (a cold page)', burst(200, 'head', 100)],
      ['100 distinct 3D bodies of 300 px', burst(100, 'body', 300)],
      ['40 distinct 3D bodies of 500 px', burst(40, 'body', 460)],
    ] as const) {
      const loop: Awaited<ReturnType<typeof measure>>[] = [];
      const threads: Awaited<ReturnType<typeof measure>>[] = [];
      for (let round = 0; round < rounds; round += 1) {
        loop.push(await measure(() => onTheLoop(requests), requests.length));
        threads.push(await measure(() => workers.run(requests), requests.length));
      }
      const median = (figures: typeof loop, key: keyof (typeof loop)[number]) =>
        figures.map((figure) => figure[key]).sort((a, b) => a - b)[Math.floor(figures.length / 2)]!;
      rows.push({
        name,
        renders: requests.length,
        loopCpuMsPerRender: median(loop, 'cpuMsPerRender'),
        poolCpuMsPerRender: median(threads, 'cpuMsPerRender'),
        loopDelayP99Ms: median(loop, 'delayP99Ms'),
        poolDelayP99Ms: median(threads, 'delayP99Ms'),
        loopDelayMeanMs: median(loop, 'delayMeanMs'),
        poolDelayMeanMs: median(threads, 'delayMeanMs'),
      });
    }
    return rows;
  } finally {
    await workers.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]!).href) {
  for (const row of await runRenderThreadBench()) console.log(row);
}
