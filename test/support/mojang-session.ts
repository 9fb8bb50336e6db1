// An in-process stand-in of Mojang's session server and name look-up, speaking their documented shapes (wiki.vg,
// "Mojang API" and "Protocol Encryption"): GET /session/minecraft/hasJoined?username&serverId[&ip] answers 200 with
// the signed profile when that player joined that server id (else 204), GET /session/minecraft/profile/{id}
// [?unsigned=false] answers the profile (signed only with unsigned=false; 204 unknown), POST /profiles/minecraft takes
// at most 10 names and answers [{id, name}], and POST /session/minecraft/join {accessToken, selectedProfile, serverId}
// records a join (204) for a player given an `accessToken`, as the game client's join before an online-mode login
// (403 ForbiddenOperationException for another token). It signs with a key of its own, never Mojang's. Tests add players and
// joins, count the requests, and make it stop answering (`hang`), as a source down or far too slow would. A player
// given a `skin` (PNG bytes, as the player would upload it at minecraft.net) wears it: the profile's texture URL is
// then served by the stand-in itself at http://{texturesHost}:{port}/texture/{sha-256}, as textures.minecraft.net does.
import { createHash, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface StandInPlayer {
  id: string;
  name: string;
  /** The skin worn, PNG bytes; absent: a texture URL on textures.minecraft.test that nothing serves. */
  skin?: Buffer;
  slim?: boolean;
  /** The token the player's launcher holds: with it, the player joins servers (POST /session/minecraft/join). */
  accessToken?: string;
}

export interface MojangStandIn {
  url: string;
  publicKey: KeyObject;
  players: StandInPlayer[];
  /** `${name}\0${serverId}` → the ip the client joined from. */
  joins: Map<string, string>;
  /** Every request's path and query, in order. */
  requests: string[];
  /** While true, no request gets an answer (the connection stays open). */
  hang: boolean;
  close(): Promise<void>;
}

/** `texturesHost`: the host name its texture URLs carry (the port is the stand-in's). */
export async function startMojangStandIn(options: { texturesHost?: string } = {}): Promise<MojangStandIn> {
  const textures = new Map<string, Buffer>();
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const sockets = new Set<Socket>();
  const standIn: MojangStandIn = {
    url: '',
    publicKey,
    players: [],
    joins: new Map(),
    requests: [],
    hang: false,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  const byName = (name: string) => standIn.players.find((player) => player.name.toLowerCase() === name.toLowerCase());
  const profile = (player: StandInPlayer, signed: boolean) => {
    const value = Buffer.from(
      JSON.stringify({
        timestamp: Date.now(),
        profileId: player.id,
        profileName: player.name,
        ...(signed && { signatureRequired: true }),
        textures: { SKIN: skinOf(player) },
      }),
    ).toString('base64');
    const signature = signed ? sign('sha1', Buffer.from(value), privateKey).toString('base64') : undefined;
    return {
      id: player.id,
      name: player.name,
      properties: [{ name: 'textures', value, ...(signature && { signature }) }],
      profileActions: [],
    };
  };
  const skinOf = (player: StandInPlayer) => {
    if (!player.skin) return { url: `http://textures.minecraft.test/texture/${player.id}` };
    const hash = createHash('sha256').update(player.skin).digest('hex');
    textures.set(hash, player.skin);
    const port = (server.address() as AddressInfo).port;
    return {
      url: `http://${options.texturesHost ?? 'textures.minecraft.test'}:${port}/texture/${hash}`,
      ...(player.slim && { metadata: { model: 'slim' } }),
    };
  };
  const send = (response: ServerResponse, status: number, body?: unknown) => {
    response.writeHead(status, body === undefined ? {} : { 'content-type': 'application/json' });
    response.end(body === undefined ? undefined : JSON.stringify(body));
  };
  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://stand-in');
    standIn.requests.push(`${url.pathname}${url.search}`);
    if (standIn.hang) return;
    const texture = /^\/texture\/([0-9a-f]{64})$/.exec(url.pathname);
    if (request.method === 'GET' && texture && textures.has(texture[1]!)) {
      response.writeHead(200, { 'content-type': 'image/png' });
      return response.end(textures.get(texture[1]!));
    }
    const profileMatch = /^\/session\/minecraft\/profile\/([0-9a-f]{32})$/.exec(url.pathname);
    if (request.method === 'GET' && url.pathname === '/session/minecraft/hasJoined') {
      const player = byName(url.searchParams.get('username') ?? '');
      const ip = player && standIn.joins.get(`${player.name}\u0000${url.searchParams.get('serverId')}`);
      const ipAsked = url.searchParams.get('ip');
      return ip !== undefined && (ipAsked === null || ipAsked === ip) ? send(response, 200, profile(player!, true)) : send(response, 204);
    }
    if (request.method === 'GET' && profileMatch) {
      const player = standIn.players.find((candidate) => candidate.id === profileMatch[1]);
      return player ? send(response, 200, profile(player, url.searchParams.get('unsigned') === 'false')) : send(response, 204);
    }
    if (request.method === 'POST' && url.pathname === '/session/minecraft/join') {
      const join = (await bodyOf(request)) as { accessToken?: string; selectedProfile?: string; serverId?: string };
      const player = standIn.players.find((candidate) => candidate.id === join.selectedProfile);
      if (!player?.accessToken || player.accessToken !== join.accessToken || typeof join.serverId !== 'string')
        return send(response, 403, { error: 'ForbiddenOperationException', errorMessage: 'Invalid token.' });
      standIn.joins.set(`${player.name}\u0000${join.serverId}`, request.socket.remoteAddress ?? '');
      return send(response, 204);
    }
    if (request.method === 'POST' && url.pathname === '/profiles/minecraft') {
      const names = (await bodyOf(request)) as string[];
      if (!Array.isArray(names) || names.length > 10)
        return send(response, 400, {
          error: 'IllegalArgumentException',
          errorMessage: 'Not more that 10 profile name per call is allowed.',
        });
      return send(
        response,
        200,
        names.flatMap((name) => {
          const player = byName(name);
          return player ? [{ id: player.id, name: player.name }] : [];
        }),
      );
    }
    send(response, 404, { error: 'Not Found', errorMessage: 'The server has not found anything matching the request URI' });
  };
  const bodyOf = async (request: IncomingMessage): Promise<unknown> => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    return JSON.parse(Buffer.concat(chunks).toString());
  };
  const server = createServer((request, response) => void handle(request, response));
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  standIn.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return standIn;
}
