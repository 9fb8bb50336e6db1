// `npm run bench`: every benchmark of the project, printed as Markdown tables (copied into docs/performance.md).
import { machine, runAccountBench } from './accounts.ts';
import { runAdminBench } from './admin.ts';
import { runImageHttpBench } from './images.ts';
import type { Figure } from './lib.ts';
import { runRenderBench } from './render.ts';

console.log(`\nMachine: ${machine()}\n`);

// Renders first, in-process, while no server competes for the two cores.
const renders = await runRenderBench();
console.log('Uncached renders, in-process (decoded textures in, PNG bytes out); target: 3D head at size 100 in at most 1 ms\n');
console.log('| render | renderer | renders/s | mean ms | PNG encode ms (floor) | bytes |');
console.log('|---|---|---|---|---|---|');
for (const row of renders) {
  console.log(`| ${row.name} | ${row.renderer} | ${row.rendersPerSecond.toFixed(0)} | ${row.meanMs.toFixed(3)} | ${row.encodeMs.toFixed(3)} | ${row.pngBytes} |`);
}

const figures: Figure[] = [...(await runAccountBench()), ...(await runImageHttpBench())];
console.log('\nHTTP, server in its own process, autocannon with 50 connections (16 for logins)\n');
console.log('| measurement | value | against | throughput ratio (saturated) | server CPU ratio (fixed rate) | target |');
console.log('|---|---|---|---|---|---|');
for (const figure of figures) {
  const ratio = figure.reference ? `${((figure.value / figure.reference.value) * 100).toFixed(0)}%` : '';
  console.log(
    `| ${figure.name} | ${figure.value.toFixed(0)} ${figure.unit} | ${figure.reference ? `${figure.reference.name} (${figure.reference.value.toFixed(0)})` : ''} | ${ratio} | ${figure.cpuRatio ? `${(figure.cpuRatio * 100).toFixed(0)}%` : ''} | ${figure.target ?? ''} |`,
  );
}

const admin = await runAdminBench();
console.log('\nAdmin lists with 100,000 users (SQLite), one request at a time\n');
console.log('| request | p50 ms | p99 ms | requests |');
console.log('|---|---|---|---|');
for (const row of admin) console.log(`| ${row.name} | ${row.p50Ms.toFixed(2)} | ${row.p99Ms.toFixed(2)} | ${row.requests} |`);
