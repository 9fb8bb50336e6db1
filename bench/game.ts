// Issue 12's figures: the game login's authenticate against the raw argon2id verify rate; hasJoined and signed
// profile lookups against the unsigned lookup (signing is reused while the textures stay the same); the unsigned
// profile lookup against the launcher document.
import {
  BENCH_OWNER,
  compareLoad,
  comparisonFigures,
  load,
  ownerToken,
  rawVerifyRate,
  startServerProcess,
  uploadFixtureSkin,
  type Figure,
  LOGIN_CONNECTIONS,
} from './lib.ts';

/** A join is good for 30 s; the benchmark joins again well within that, so hasJoined keeps answering 200. */
const REJOIN_MS = 10_000;

export async function runGameBench(seconds = 3): Promise<Figure[]> {
  const rawVerifies = await rawVerifyRate(5);

  const server = await startServerProcess('src/main.ts', BENCH_OWNER);
  const api = `${server.url}/api/yggdrasil`;
  const json = { 'content-type': 'application/json' };
  let rejoin: NodeJS.Timeout | undefined;
  try {
    await uploadFixtureSkin(server.url, await ownerToken(server.url), 'classic');
    const authenticate = {
      url: `${api}/authserver/authenticate`,
      method: 'POST' as const,
      headers: json,
      body: JSON.stringify({ username: BENCH_OWNER.OWNER_USERNAME, password: BENCH_OWNER.OWNER_PASSWORD }),
      connections: LOGIN_CONNECTIONS,
    };
    await load({ ...authenticate, seconds: 2 }); // warm-up
    const logins = await load({ ...authenticate, seconds: 5 });
    if (logins.errors > 0) throw new Error(`${logins.errors} authentications failed during the benchmark`);

    const login = (await (await fetch(authenticate.url, { method: 'POST', headers: json, body: authenticate.body })).json()) as {
      accessToken: string;
      selectedProfile: { id: string; name: string };
    };
    const join = () =>
      fetch(`${api}/sessionserver/session/minecraft/join`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ accessToken: login.accessToken, selectedProfile: login.selectedProfile.id, serverId: 'bench-server' }),
      });
    if ((await join()).status !== 204) throw new Error('join failed');
    rejoin = setInterval(() => void join(), REJOIN_MS);

    const profile = `${api}/sessionserver/session/minecraft/profile/${login.selectedProfile.id}`;
    const unsigned = { url: profile, seconds, server };
    const hasJoined = await compareLoad(
      {
        url: `${api}/sessionserver/session/minecraft/hasJoined?username=${login.selectedProfile.name}&serverId=bench-server`,
        seconds,
        server,
      },
      unsigned,
    );
    const signed = await compareLoad({ url: `${profile}?unsigned=false`, seconds, server }, unsigned);
    const againstLauncher = await compareLoad(unsigned, {
      url: `${server.url}/api/skin/launcher/${login.selectedProfile.id}`,
      seconds,
      server,
    });

    return [
      {
        name: 'POST /api/yggdrasil/authserver/authenticate',
        value: logins.requestsPerSecond,
        unit: 'req/s',
        reference: { name: 'raw argon2id verify', value: rawVerifies },
        target: '>= 85%',
      },
      ...comparisonFigures('GET hasJoined (signed profile)', 'GET profile/{uuid} (unsigned)', hasJoined, '>= 50%').slice(1),
      ...comparisonFigures('GET profile/{uuid}?unsigned=false (signed)', 'GET profile/{uuid} (unsigned)', signed, '>= 50%'),
      ...comparisonFigures('GET profile/{uuid} (unsigned)', 'GET /api/skin/launcher/{uuid}', againstLauncher, ''),
    ];
  } finally {
    clearInterval(rejoin);
    await server.stop();
  }
}
