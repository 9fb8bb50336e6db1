// Issue 27's figures: accounts imported per second from a CookieCMS source of 10,000 accounts in MariaDB, without
// textures and with one skin each (the ratio of the two is the cost of checking and storing a skin), and the peak
// memory of the import's process (rows are read 500 at a time). Needs TEST_MARIADB_URL (skipped without it).
import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { COOKIECMS_DDL } from '../test/support/cookiecms-ddl.ts';
import { createMariaDbSource, mariadbUrl } from '../test/support/mariadb.ts';

const ACCOUNTS = 10_000;
const INSERT_ROWS = 1_000;

export interface ImportFigure {
  name: string;
  accountsPerSecond: number;
  peakRssMb: number;
}

export async function runImportBench(): Promise<{ figures: ImportFigure[]; skipped?: string }> {
  if (!mariadbUrl) return { figures: [], skipped: 'Import rows skipped: set TEST_MARIADB_URL (a MariaDB or MySQL server).' };
  const source = await createMariaDbSource(COOKIECMS_DDL);
  try {
    const bcrypt = execFileSync(
      'python3',
      ['-W', 'ignore', '-c', 'import crypt; print(crypt.crypt("bench password", crypt.mksalt(crypt.METHOD_BLOWFISH, rounds=1024)))'],
      { encoding: 'utf8' },
    ).trim();
    const textures = mkdtempSync(join(tmpdir(), 'bench-import-uploads-'));
    mkdirSync(join(textures, 'skins'));
    for (let first = 1; first <= ACCOUNTS; first += INSERT_ROWS) {
      const users: unknown[] = [];
      const skins: unknown[] = [];
      for (let id = first; id < first + INSERT_ROWS; id += 1) {
        const uuid = `00000000-0000-4000-8000-${String(id).padStart(12, '0')}`;
        const skin = `10000000-0000-4000-8000-${String(id).padStart(12, '0')}`;
        users.push(id, `bench_${id}`, `bench${id}@example.org`, uuid, bcrypt);
        skins.push(skin, id);
        copyFileSync('test/fixtures/skins/classic.png', join(textures, 'skins', `${skin}.png`));
      }
      await source.run(
        `INSERT INTO users (id, username, mail, mail_verify, uuid, password, permission_group_id) VALUES ${Array(INSERT_ROWS).fill('(?, ?, ?, 1, ?, ?, 1)').join(', ')}`,
        users,
      );
      await source.run(
        `INSERT INTO skins_library (uuid, name, ownerid) VALUES ${Array(INSERT_ROWS).fill("(?, 'Skin', ?)").join(', ')}`,
        skins,
      );
    }
    const without = await importOnce(source.url, null);
    const withSkins = await importOnce(source.url, textures);
    return {
      figures: [
        { name: `import of ${ACCOUNTS} CookieCMS accounts from MariaDB, without textures [sqlite]`, ...without },
        { name: `import of ${ACCOUNTS} CookieCMS accounts from MariaDB, one skin each [sqlite]`, ...withSkins },
      ],
    };
  } finally {
    await source.drop();
  }
}

/** One import into a fresh SQLite database, in a process of its own (its peak RSS is the import's). */
async function importOnce(from: string, textures: string | null): Promise<{ accountsPerSecond: number; peakRssMb: number }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-import-target-'));
  const args = ['--import', 'tsx', 'bench/import-process.ts', from, ...(textures ? [textures] : [])];
  const output = await new Promise<string>((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`the import process ended with ${code}: ${out}`))));
  });
  const { seconds, imported, maxRssKb } = JSON.parse(output.trim().split('\n').at(-1)!) as {
    seconds: number;
    imported: number;
    maxRssKb: number;
  };
  if (imported !== ACCOUNTS) throw new Error(`imported ${imported} of ${ACCOUNTS} accounts`);
  return { accountsPerSecond: imported / seconds, peakRssMb: maxRssKb / 1024 };
}
