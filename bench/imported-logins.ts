// Issue 36 (M8): what wrong guesses at imported accounts cost the rest of the service. One client address sends its
// whole 15-minute budget (30 wrong web logins over 3 accounts, contract section 15) at accounts whose passwords are
// imported bcrypt at cost 10 (Blessing Skin's and CookieCMS's default), and then the same at accounts with the
// service's own argon2id, while /healthz is asked every 50 ms: its latency under the bcrypt guesses against the same
// under argon2id, in the same server, round after round. Two ways of sending: all 30 at once (as the security review
// did: the imported checks beyond two at once are refused with 429), and two at a time (every guess is checked).
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hashPassword } from '../src/accounts/passwords.ts';
import { createAccount } from '../src/accounts/create-account.ts';
import { serviceActing } from '../src/audit/acting.ts';
import { systemClock } from '../src/clock.ts';
import { openDatabase } from '../src/database/connect.ts';
import { DEFAULT_PROFILE_SETTINGS } from '../src/settings.ts';
import { BENCH_OWNER, medianOf, startServerProcess } from './lib.ts';

const ROUNDS = 5;
const GUESSES = 30;
const SAMPLE_EVERY_MS = 50;
/** /healthz is sampled at least this long from the first guess, so that every round has as many samples. */
const WINDOW_MS = 3000;

export interface ImportedLoginFigure {
  name: string;
  /** Medians over the rounds of /healthz's p90 and max latency, in ms, and of the logins refused with 429. */
  bcrypt: { p90Ms: number; maxMs: number; refused: number };
  argon2id: { p90Ms: number; maxMs: number; refused: number };
}

/** bcrypt at cost 10 as PHP's password_hash writes it, made by Python's crypt. */
const phpBcrypt = (password: string) =>
  execFileSync(
    'python3',
    ['-W', 'ignore', '-c', 'import crypt,sys; print(crypt.crypt(sys.argv[1], crypt.mksalt(crypt.METHOD_BLOWFISH, rounds=1024)))', password],
    { encoding: 'utf8' },
  )
    .trim()
    .replace(/^\$2b\$/, '$2y$');

export async function runImportedLoginBench(): Promise<ImportedLoginFigure[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-imported-'));
  // TRUST_PROXY: each round guesses from an address of its own (X-Forwarded-For), so no round meets an earlier one's limits.
  const server = await startServerProcess('src/main.ts', { ...BENCH_OWNER, DATA_DIR: dataDir, TRUST_PROXY: 'true' });
  try {
    const db = openDatabase({ kind: 'sqlite', file: join(dataDir, 'skinservice.sqlite') });
    const bcrypt = `imported:bcrypt:${phpBcrypt('the old password')}`;
    const argon2id = await hashPassword('the new password');
    const accounts = { bcrypt: [] as string[], argon2id: [] as string[] };
    for (const kind of ['bcrypt', 'argon2id'] as const) {
      for (let index = 0; index < 3; index += 1) {
        const username = `${kind === 'bcrypt' ? 'Imported' : 'Native'}${index}`;
        await createAccount(
          serviceActing('bench'),
          db,
          systemClock,
          { username, mail: `${username.toLowerCase()}@example.org`, password: 'placeholder password 1', perms: 0 },
          DEFAULT_PROFILE_SETTINGS,
        );
        await db
          .updateTable('users')
          .set({ password: kind === 'bcrypt' ? bcrypt : argon2id })
          .where('username', '=', username)
          .execute();
        accounts[kind].push(username);
      }
    }
    await db.destroy();

    let address = 0;
    /** One round: 30 wrong logins from a fresh address over the accounts, `inFlight` at a time; /healthz sampled meanwhile. */
    const round = async (names: string[], inFlight: number) => {
      address += 1;
      const from = `10.77.${Math.floor(address / 250)}.${(address % 250) + 1}`;
      let refused = 0;
      let next = 0;
      const guess = async () => {
        for (let index = next++; index < GUESSES; index = next++) {
          const answer = await fetch(`${server.url}/api/auth/login`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-forwarded-for': from },
            body: JSON.stringify({ username: names[index % names.length], password: `wrong guess ${index}` }),
          });
          await answer.arrayBuffer();
          if (answer.status === 429) refused += 1;
          else if (answer.status !== 401) throw new Error(`a wrong login answered ${answer.status}`);
        }
      };
      const latencies: number[] = [];
      let guessing = true;
      const windowEnds = performance.now() + WINDOW_MS;
      const sampling = (async () => {
        while (guessing || performance.now() < windowEnds) {
          const started = performance.now();
          const health = await fetch(`${server.url}/healthz`);
          await health.arrayBuffer();
          latencies.push(performance.now() - started);
          await new Promise((resolve) => setTimeout(resolve, SAMPLE_EVERY_MS));
        }
      })();
      await Promise.all(Array.from({ length: inFlight }, guess));
      guessing = false;
      await sampling;
      latencies.sort((a, b) => a - b);
      return { p90Ms: latencies[Math.floor(latencies.length * 0.9)] ?? 0, maxMs: latencies.at(-1) ?? 0, refused };
    };

    const figures: ImportedLoginFigure[] = [];
    for (const [name, inFlight] of [
      ['30 wrong web logins at once from one address', GUESSES],
      ['30 wrong web logins, 2 at a time, from one address', 2],
    ] as const) {
      await round(accounts.argon2id, inFlight); // warm-up: the first logins compile the paths and start the threads
      await round(accounts.bcrypt, inFlight);
      const results = { bcrypt: [] as Awaited<ReturnType<typeof round>>[], argon2id: [] as Awaited<ReturnType<typeof round>>[] };
      for (let index = 0; index < ROUNDS; index += 1) {
        results.argon2id.push(await round(accounts.argon2id, inFlight));
        results.bcrypt.push(await round(accounts.bcrypt, inFlight));
      }
      const summary = (list: Awaited<ReturnType<typeof round>>[]) => ({
        p90Ms: medianOf(list.map((result) => result.p90Ms)),
        maxMs: medianOf(list.map((result) => result.maxMs)),
        refused: medianOf(list.map((result) => result.refused)),
      });
      figures.push({ name, bcrypt: summary(results.bcrypt), argon2id: summary(results.argon2id) });
    }
    return figures;
  } finally {
    await server.stop();
  }
}
