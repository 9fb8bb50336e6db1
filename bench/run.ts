// `npm run bench`: every benchmark of the project, printed as one Markdown table (copied into docs/performance.md).
// Set TEST_POSTGRES_URL to include the PostgreSQL rows.
import { availableParallelism } from 'node:os';
import { machine, runAccountBench } from './accounts.ts';
import { runAdminBench } from './admin.ts';
import { runDatabaseBench } from './databases.ts';
import { runGameBench } from './game.ts';
import { runDropInBench, runImageHttpBench } from './images.ts';
import type { Figure } from './lib.ts';
import { runImportBench } from './import.ts';
import { runImportedLoginBench } from './imported-logins.ts';
import { runLibraryBench } from './library.ts';
import { runProfileBench } from './profiles.ts';
import { runRenderBench } from './render.ts';
import { runRenderThreadBench } from './render-threads.ts';
import { runScaleBench } from './scale.ts';

interface TableRow {
  figure: string;
  value: string;
  against?: string;
  ratio?: number;
  cpuRatio?: number;
  target?: string;
  met?: string;
}

const percent = (ratio: number | undefined) => (ratio === undefined || Number.isNaN(ratio) ? '' : `${(ratio * 100).toFixed(0)}%`);

/** A ">= 85%" target is met by the saturated throughput ratio; the server-CPU ratio is reported beside it. */
function verdict(target: string, ratio: number, cpuRatio: number | undefined): string {
  const wanted = Number(/(\d+)%/.exec(target)?.[1]) / 100;
  if (ratio >= wanted) return 'yes';
  return cpuRatio !== undefined && cpuRatio >= wanted ? 'by server CPU only' : 'no';
}

function httpRow(figure: Figure): TableRow {
  const ratio = figure.reference ? figure.value / figure.reference.value : undefined;
  return {
    figure: figure.name,
    value: `${figure.value.toFixed(0)} ${figure.unit}`,
    against: figure.reference ? `${figure.reference.name} (${figure.reference.value.toFixed(0)})` : undefined,
    ratio,
    cpuRatio: figure.cpuRatio,
    target: figure.target,
    met: figure.target && ratio !== undefined ? verdict(figure.target, ratio, figure.cpuRatio) : undefined,
  };
}

const rows: TableRow[] = [];
console.error(`Machine: ${machine()}`);

// Renders first, in-process, while no server competes for the cores.
for (const render of await runRenderBench()) {
  const isTarget = render.renderer === 'own' && render.name === 'head player 100';
  rows.push({
    figure: `uncached render: ${render.name}${render.renderer === 'skia' || render.name.startsWith('own') ? '' : ' (own rasteriser)'}`,
    value: `${render.meanMs.toFixed(3)} ms (${render.rendersPerSecond.toFixed(0)}/s, ${render.pngBytes} B)`,
    against: `PNG encode of the same image: ${render.encodeMs.toFixed(3)} ms`,
    target: isTarget ? '<= 1 ms' : undefined,
    met: isTarget ? (render.meanMs <= 1 ? 'yes' : 'no') : undefined,
  });
}
// Uncached renders on the event loop against a worker pool (docs/performance.md, "Renders on the event loop").
for (const threads of await runRenderThreadBench()) {
  rows.push({
    figure: `${threads.name}: CPU per render, event loop against ${availableParallelism()} worker threads`,
    value: `${threads.loopCpuMsPerRender.toFixed(3)} ms on the loop`,
    against: `${threads.poolCpuMsPerRender.toFixed(3)} ms with worker threads (CPU of every thread)`,
    ratio: threads.loopCpuMsPerRender / threads.poolCpuMsPerRender,
  });
  rows.push({
    figure: `${threads.name}: event-loop delay meanwhile, mean / p99`,
    value: `on the loop ${threads.loopDelayMeanMs.toFixed(1)} / ${threads.loopDelayP99Ms.toFixed(1)} ms; with workers ${threads.poolDelayMeanMs.toFixed(1)} / ${threads.poolDelayP99Ms.toFixed(1)} ms`,
  });
}
for (const figure of [
  ...(await runAccountBench()),
  ...(await runImageHttpBench()),
  ...(await runDropInBench()),
  ...(await runGameBench()),
  ...(await runProfileBench()),
])
  rows.push(httpRow(figure));
for (const admin of await runAdminBench()) {
  rows.push({
    figure: `${admin.name}, one at a time, 100,000 users [sqlite]`,
    value: `p50 ${admin.p50Ms.toFixed(2)} ms, p99 ${admin.p99Ms.toFixed(2)} ms`,
  });
}
if (process.env.TEST_POSTGRES_URL) {
  for (const { name, comparison, target } of await runDatabaseBench()) {
    // Reference over ours, as in the other rows: SQLite's CPU over PostgreSQL's, the bare route's over /api/home's.
    const cpuRatio = 1 / comparison.ratio;
    rows.push({
      figure: name,
      value: `${comparison.subjectMicros.toFixed(0)} us/req (server CPU, fixed rate)`,
      against: `${comparison.referenceMicros.toFixed(0)} us/req`,
      cpuRatio,
      target,
      met: target && (cpuRatio >= Number(/(\d+)%/.exec(target)?.[1]) / 100 ? 'yes' : 'no'),
    });
  }
}
// Issue 40: pages of a library of 100,000 entries, on SQLite and (with TEST_POSTGRES_URL) PostgreSQL.
for (const { name, comparison, p50Ms, p99Ms } of await runLibraryBench()) {
  rows.push({
    figure: name,
    value: `${comparison.subjectMicros.toFixed(0)} us/req (server CPU, fixed rate); one at a time p50 ${p50Ms} ms, p99 ${p99Ms} ms`,
    against: `${comparison.referenceMicros.toFixed(0)} us/req`,
    cpuRatio: 1 / comparison.ratio,
  });
}
for (const { name, bcrypt, argon2id } of await runImportedLoginBench()) {
  // Latency: lower is better, so the target is a ceiling on the ratio to argon2id's (contract 15b, issue 36).
  const ratio = bcrypt.p90Ms / argon2id.p90Ms;
  rows.push({
    figure: `GET /healthz p90 under ${name}, imported bcrypt cost 10`,
    value: `${bcrypt.p90Ms.toFixed(1)} ms (max ${bcrypt.maxMs.toFixed(0)} ms; ${bcrypt.refused} of 30 refused with 429)`,
    against: `the same under argon2id accounts: ${argon2id.p90Ms.toFixed(1)} ms (max ${argon2id.maxMs.toFixed(0)} ms)`,
    ratio,
    target: '<= 200%',
    met: ratio <= 2 ? 'yes' : 'no',
  });
}
const imports = await runImportBench();
const [withoutTextures, withSkins] = imports.figures;
for (const figure of imports.figures) {
  rows.push({
    figure: figure.name,
    value: `${figure.accountsPerSecond.toFixed(0)} accounts/s; peak RSS ${figure.peakRssMb.toFixed(0)} MiB`,
    ...(figure === withSkins && withoutTextures
      ? {
          against: `without textures (${withoutTextures.accountsPerSecond.toFixed(0)})`,
          ratio: figure.accountsPerSecond / withoutTextures.accountsPerSecond,
        }
      : {}),
  });
}
const scale = await runScaleBench();
for (const row of scale.rows) {
  const { requestsPerSecond, p50Ms, p99Ms } = row.result;
  rows.push({
    figure: `${row.name}, 200 connections`,
    value: `${requestsPerSecond.toFixed(0)} req/s, p50 ${p50Ms} ms, p99 ${p99Ms} ms, server CPU ${row.result.cpuMicrosPerRequest?.toFixed(0)} us/req; peak RSS ${row.peakRssMb.toFixed(0)} MiB`,
  });
}

console.log(
  `\nMachine: ${machine()}. HTTP rows: server in its own process, autocannon with 50 connections (16 for logins) unless the row says otherwise.\n`,
);
console.log('| figure | value | against | ratio (saturated) | server CPU ratio (fixed rate) | target | met |');
console.log('|---|---|---|---|---|---|---|');
for (const row of rows) {
  console.log(
    `| ${row.figure} | ${row.value} | ${row.against ?? ''} | ${percent(row.ratio)} | ${percent(row.cpuRatio)} | ${row.target ?? ''} | ${row.met ?? ''} |`,
  );
}
if (scale.skipped) console.log(`\n${scale.skipped}`);
if (imports.skipped) console.log(`\n${imports.skipped}`);
