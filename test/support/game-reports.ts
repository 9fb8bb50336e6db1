// The game's side of player/report for the report tests: players logged in through Yggdrasil as the game does, their
// chat keys from player/certificates (the private key as the game reads it), reports sent with the game's headers,
// and the moderators' queue.
import assert from 'node:assert/strict';
import { createPrivateKey } from 'node:crypto';
import yggdrasil from 'yggdrasil';
import type { ManualClock } from './clock.ts';
import type { DatabaseKind } from './databases.ts';
import { OWNER, startService, type TestService } from './service.ts';

export const GAME_API = '/api/yggdrasil';
export const GAME_REPORT = `${GAME_API}/minecraftservices/player/report`;

export const gameHeaders = (accessToken: string) => ({
  authorization: `Bearer ${accessToken}`,
  accept: 'application/json',
  'content-type': 'application/json; charset=utf-8',
});

/** The game's PEM (RSA PRIVATE KEY markers around PKCS#8) as a key. */
const gamePrivateKey = (pem: string) =>
  createPrivateKey({ key: Buffer.from(pem.replace(/-----[A-Z ]+-----/g, '').replace(/\s/g, ''), 'base64'), format: 'der', type: 'pkcs8' });

/** A report body as Gson writes it: the salts, written as "@@digits@@" strings, become bare 64-bit numbers. */
export const gsonJson = (body: unknown) => JSON.stringify(body).replace(/"@@(-?\d+)@@"/g, '$1');

/** A service listening on a free port (the yggdrasil client needs a URL), its Yggdrasil root and the owner's token. */
export async function listeningReportService(kind: DatabaseKind, clock: ManualClock) {
  const service = await startService(kind, { clock, settings: { owner: OWNER, jwtTtlSeconds: 30 * 86400 } });
  await service.app.listen({ port: 0, host: '127.0.0.1' });
  const root = `http://127.0.0.1:${(service.app.server.address() as { port: number }).port}${GAME_API}`;
  return { service, root, owner: await service.ownerToken() };
}

/** `root`: the listening service's Yggdrasil root URL; `owner`: a web token of the owner (the queue's reader). */
export function gameReportClient(at: () => { service: TestService; root: string; owner: string }) {
  const gameLogin = async (mail: string, password: string) =>
    (await yggdrasil({ host: `${at().root}/authserver` }).auth({ user: mail, pass: password })).accessToken as string;
  return {
    gameLogin,
    player: async () => {
      const { service } = at();
      const registered = await service.registerPlayer();
      const home = (await service.call('GET', '/api/home', { token: registered.token })).body.data;
      return { ...registered, uuid: home.Uuid as string, accessToken: await gameLogin(registered.mail, registered.password) };
    },
    chatKey: async (accessToken: string) => {
      const answer = await at().service.call('POST', `${GAME_API}/minecraftservices/player/certificates`, {
        headers: { authorization: `Bearer ${accessToken}` },
      });
      assert.equal(answer.status, 200);
      return gamePrivateKey(answer.body.keyPair.privateKey);
    },
    send: (accessToken: string, json: string) => at().service.call('POST', GAME_REPORT, { headers: gameHeaders(accessToken), body: json }),
    queue: async (state = 'open', token = at().owner) =>
      (await at().service.call('GET', `/api/admin/game-reports?state=${state}`, { token })).body.data,
    reportCount: async () =>
      Number(
        (
          await at()
            .service.db.selectFrom('game_reports')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      ),
  };
}
