// The import of bench/import.ts, in a process of its own: `npm run cli -- import cookiecms` as the operator runs it,
// timed, printing one JSON line {seconds, imported, maxRssKb}.
import { performance } from 'node:perf_hooks';
import { runCli } from '../src/admin/cli.ts';

const [from, textures] = process.argv.slice(2);
const lines: string[] = [];
const started = performance.now();
await runCli(['import', 'cookiecms', '--from', from!, ...(textures ? ['--textures', textures] : [])], (line) => lines.push(line));
const seconds = (performance.now() - started) / 1000;
const imported = Number(/accounts: (\d+) imported/.exec(lines.join('\n'))?.[1] ?? 0);
console.log(JSON.stringify({ seconds, imported, maxRssKb: process.resourceUsage().maxRSS }));
