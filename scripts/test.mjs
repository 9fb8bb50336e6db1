// `npm test`: every *.test.ts under src/ and test/, through node's own test runner with tsx.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

// The browser tests load the pages from web/dist: build them from the current sources first (about a second).
const built = spawnSync('npm', ['run', 'build:web'], { stdio: 'inherit' });
if (built.status !== 0) process.exit(built.status ?? 1);

const testFiles = ['src', 'test']
  .flatMap((root) => readdirSync(root, { recursive: true }).map((file) => join(root, String(file))))
  .filter((file) => file.endsWith('.test.ts'))
  .sort();
const result = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=2', ...process.argv.slice(2), ...testFiles], {
  stdio: 'inherit',
});
process.exit(result.status ?? 1);
