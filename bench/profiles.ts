// Issue 26's figures: the game login's authenticate and hasJoined for an account with 5 profiles against one with 1,
// in the same run on the same server. They should cost the same within noise: a login reads the account's profiles
// in one indexed query, and hasJoined finds one profile by its name.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAccount } from '../src/accounts/create-account.ts';
import { serviceActing } from '../src/audit/acting.ts';
import { systemClock } from '../src/clock.ts';
import { openDatabase } from '../src/database/connect.ts';
import { DEFAULT_PROFILE_SETTINGS } from '../src/settings.ts';
import { BENCH_OWNER, compareLoad, comparisonFigures, ownerToken, startServerProcess, LOGIN_CONNECTIONS, type Figure } from './lib.ts';

const PROFILES = 5;
/** A join is good for 30 s; the benchmark joins again well within that, so hasJoined keeps answering 200. */
const REJOIN_MS = 10_000;
const ONE_PROFILE = { username: 'BenchSingle', mail: 'single@example.org', password: 'bench password' };

export async function runProfileBench(seconds = 3): Promise<Figure[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'skinservice-bench-'));
  const server = await startServerProcess('src/main.ts', { ...BENCH_OWNER, DATA_DIR: dataDir, MAX_PROFILES: String(PROFILES) });
  const api = `${server.url}/api/yggdrasil`;
  const json = { 'content-type': 'application/json' };
  const rejoins: NodeJS.Timeout[] = [];
  try {
    // The account with one profile, made beside the running server (the owner made by the settings gets the other four).
    const db = openDatabase({ kind: 'sqlite', file: join(dataDir, 'skinservice.sqlite') });
    await createAccount(serviceActing('system'), db, systemClock, { ...ONE_PROFILE, perms: 0 }, DEFAULT_PROFILE_SETTINGS);
    await db.destroy();
    const token = await ownerToken(server.url);
    const names: string[] = [];
    for (let added = 1; added < PROFILES; added += 1) {
      const reply = await fetch(`${server.url}/api/home/profiles`, {
        method: 'POST',
        headers: { ...json, authorization: `Bearer ${token}` },
        body: JSON.stringify({ name: `BenchAlt${added}` }),
      });
      if (reply.status !== 201) throw new Error(`adding a profile: ${reply.status}`);
      names.push(`BenchAlt${added}`);
    }

    const login = (mail: string, password: string) => ({
      url: `${api}/authserver/authenticate`,
      method: 'POST' as const,
      headers: json,
      body: JSON.stringify({ username: mail, password }),
      connections: LOGIN_CONNECTIONS,
      seconds,
      server,
    });
    const authenticate = await compareLoad(
      login(BENCH_OWNER.OWNER_MAIL, BENCH_OWNER.OWNER_PASSWORD),
      login(ONE_PROFILE.mail, ONE_PROFILE.password),
    );

    /** Logs in by `name` (a bound token), joins, and keeps the join fresh; answers the hasJoined load for it. */
    const joined = async (name: string, password: string) => {
      const body = (await (
        await fetch(`${api}/authserver/authenticate`, { method: 'POST', headers: json, body: JSON.stringify({ username: name, password }) })
      ).json()) as { accessToken: string; selectedProfile: { id: string } };
      const join = () =>
        fetch(`${api}/sessionserver/session/minecraft/join`, {
          method: 'POST',
          headers: json,
          body: JSON.stringify({ accessToken: body.accessToken, selectedProfile: body.selectedProfile.id, serverId: 'bench-server' }),
        });
      if ((await join()).status !== 204) throw new Error(`join of ${name} failed`);
      rejoins.push(setInterval(() => void join(), REJOIN_MS));
      return { url: `${api}/sessionserver/session/minecraft/hasJoined?username=${name}&serverId=bench-server`, seconds, server };
    };
    const hasJoined = await compareLoad(
      await joined(names.at(-1)!, BENCH_OWNER.OWNER_PASSWORD),
      await joined(ONE_PROFILE.username, ONE_PROFILE.password),
    );
    return [
      ...comparisonFigures(
        `POST authenticate by mail, account with ${PROFILES} profiles`,
        'POST authenticate by mail, account with 1 profile',
        authenticate,
        '>= 85%',
      ),
      ...comparisonFigures(
        `GET hasJoined, the ${PROFILES}th profile of an account`,
        'GET hasJoined, an account with 1 profile',
        hasJoined,
        '>= 85%',
      ),
    ];
  } finally {
    for (const rejoin of rejoins) clearInterval(rejoin);
    await server.stop();
  }
}
