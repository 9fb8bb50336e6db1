// `npm test`: every *.test.ts under src/ and test/, through node's own test runner with tsx.
// `npm test -- FILE...`: only those files (a folder: the *.test.ts files under it); `npm test -- --no-browser`:
// every file but the browser tests (test/browser/), as CI runs them on its second Node line; other arguments, such
// as `--test-name-pattern=PATTERN`, go to node as they are.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The *.test.ts files under `root` (a folder), sorted. */
const testFilesUnder = (root) =>
  readdirSync(root, { recursive: true })
    .map((file) => join(root, String(file)))
    .filter((file) => file.endsWith('.test.ts'))
    .sort();

const nodeArguments = [];
const chosenFiles = [];
let withBrowser = true;
for (const argument of process.argv.slice(2)) {
  if (argument === '--no-browser') {
    withBrowser = false;
  } else if (!argument.startsWith('-') && existsSync(argument)) {
    chosenFiles.push(...(statSync(argument).isDirectory() ? testFilesUnder(argument) : [argument]));
  } else if (!argument.startsWith('-') && argument.endsWith('.test.ts')) {
    console.error(`npm test: no file ${argument}`);
    process.exit(1);
  } else {
    nodeArguments.push(argument);
  }
}

// The browser tests load the pages from web/dist: build them from the current sources first (a few seconds).
const built = spawnSync('npm', ['run', 'build:web'], { stdio: 'inherit' });
if (built.status !== 0) process.exit(built.status ?? 1);

const BROWSER_TESTS = join('test', 'browser');
const testFiles = (chosenFiles.length > 0 ? chosenFiles : ['src', 'test'].flatMap(testFilesUnder)).filter(
  (file) => withBrowser || !file.startsWith(BROWSER_TESTS),
);
const result = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=2', ...nodeArguments, ...testFiles], {
  stdio: 'inherit',
});
process.exit(result.status ?? 1);
