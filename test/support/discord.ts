// An in-process stand-in of Discord's three OAuth 2.0 endpoints, speaking Discord's documented protocol (its developer
// docs, "OAuth2" and "Users"): GET /oauth2/authorize sends the browser back to the registered redirect URI with `code`
// and `state` (or `error=access_denied` when the player refuses); POST /api/oauth2/token takes only
// application/x-www-form-urlencoded, the client's credentials as HTTP Basic or as client_id/client_secret fields, and
// checks the code, the redirect URI and the PKCE verifier; GET /api/users/@me answers the user object for the Bearer
// token. Tests choose who is signed in at Discord and make it refuse, break or answer garbage.
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Socket } from 'node:net';

/** A Discord user as /users/@me answers it (the fields the `identify` scope gives). */
export interface StandInUser {
  id: string;
  username: string;
  global_name: string | null;
  /** An avatar hash, or null for the default avatar. */
  avatar: string | null;
}

/**
 * What the stand-in does next: `approve` (the player allows), `deny` (the player presses Cancel), or a failure of
 * Discord itself: `token-down` / `user-down` (the connection is cut), `token-garbage` / `user-garbage` (an answer
 * that is not Discord's), `token-error` (Discord refuses the code with invalid_grant).
 */
export type StandInMode = 'approve' | 'deny' | 'token-down' | 'token-garbage' | 'token-error' | 'user-down' | 'user-garbage';

export interface TokenRequest {
  contentType: string | undefined;
  basicAuth: boolean;
  fields: Record<string, string>;
}

interface IssuedCode {
  user: StandInUser;
  redirectUri: string;
  challenge: string | null;
  expiresAt: number;
}

export interface DiscordStandIn {
  /** The base to give the service as DISCORD_URL. */
  url: string;
  clientId: string;
  clientSecret: string;
  /** Who is signed in at Discord in the browser: the account that authorizes next. */
  signIn(user: StandInUser): void;
  mode: StandInMode;
  /** Every request to the token endpoint, as it arrived. */
  tokenRequests: TokenRequest[];
  /** Requests of each endpoint (path without query). */
  hits: string[];
  close(): Promise<void>;
}

export function discordUser(overrides: Partial<StandInUser> = {}): StandInUser {
  const id = String(100_000_000_000_000_000n + BigInt(randomBytes(6).readUIntBE(0, 6)));
  return { id, username: `user_${id.slice(-6)}`, global_name: null, avatar: randomBytes(16).toString('hex'), ...overrides };
}

/** Starts the stand-in on 127.0.0.1; `redirectUri` is the one registered for the application. */
export async function startDiscordStandIn(redirectUri: string): Promise<DiscordStandIn> {
  const clientId = '1234567890123456789';
  const clientSecret = randomBytes(16).toString('hex');
  const codes = new Map<string, IssuedCode>();
  const accessTokens = new Map<string, StandInUser>();
  const sockets = new Set<Socket>();
  let signedIn: StandInUser | null = null;

  const json = (response: ServerResponse, status: number, body: unknown) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  };

  const authorize = (url: URL, response: ServerResponse) => {
    const query = url.searchParams;
    // Discord shows an error page of its own (no redirect) for an unknown client or an unregistered redirect URI.
    if (query.get('client_id') !== clientId || query.get('redirect_uri') !== redirectUri) {
      response.writeHead(400, { 'content-type': 'text/plain' });
      return response.end('Invalid OAuth2 redirect_uri or client_id');
    }
    if (query.get('response_type') !== 'code' || !(query.get('scope') ?? '').split(' ').includes('identify')) {
      response.writeHead(400, { 'content-type': 'text/plain' });
      return response.end('Invalid response_type or scope');
    }
    const back = new URL(redirectUri);
    if (standIn.mode === 'deny' || !signedIn) {
      back.searchParams.set('error', 'access_denied');
      back.searchParams.set('error_description', 'The resource owner or authorization server denied the request');
    } else {
      const code = randomBytes(15).toString('base64url');
      const method = query.get('code_challenge_method');
      codes.set(code, {
        user: signedIn,
        redirectUri,
        challenge: method === 'S256' ? query.get('code_challenge') : null,
        expiresAt: Date.now() + 10 * 60_000,
      });
      back.searchParams.set('code', code);
    }
    const state = query.get('state');
    if (state !== null) back.searchParams.set('state', state);
    response.writeHead(302, { location: back.href });
    response.end();
  };

  const token = async (request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const contentType = request.headers['content-type'];
    const fields = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
    const basic = /^Basic (.+)$/.exec(request.headers.authorization ?? '');
    standIn.tokenRequests.push({ contentType, basicAuth: basic !== null, fields });
    if (standIn.mode === 'token-down') return request.socket.destroy();
    if (standIn.mode === 'token-garbage') {
      response.writeHead(200, { 'content-type': 'text/html' });
      return response.end('<html><body>Bad gateway</body></html>');
    }
    // Only form bodies (Discord refuses JSON here).
    if (!contentType?.startsWith('application/x-www-form-urlencoded')) return json(response, 400, { error: 'invalid_request' });
    const [id, secret] = basic
      ? (Buffer.from(basic[1]!, 'base64').toString('utf8').split(':') as [string, string])
      : [fields.client_id, fields.client_secret];
    if (id !== clientId || secret !== clientSecret) return json(response, 401, { error: 'invalid_client' });
    if (fields.grant_type !== 'authorization_code') return json(response, 400, { error: 'unsupported_grant_type' });
    const issued = codes.get(fields.code ?? '');
    codes.delete(fields.code ?? '');
    const verifierMatches =
      issued?.challenge === null ||
      (fields.code_verifier !== undefined && createHash('sha256').update(fields.code_verifier).digest('base64url') === issued?.challenge);
    if (
      standIn.mode === 'token-error' ||
      !issued ||
      issued.expiresAt < Date.now() ||
      fields.redirect_uri !== issued.redirectUri ||
      !verifierMatches
    ) {
      return json(response, 400, { error: 'invalid_grant', error_description: 'Invalid "code" in request.' });
    }
    const accessToken = randomBytes(20).toString('base64url');
    accessTokens.set(accessToken, issued.user);
    return json(response, 200, {
      access_token: accessToken,
      token_type: 'Bearer',
      expires_in: 604800,
      refresh_token: randomBytes(20).toString('base64url'),
      scope: 'identify',
    });
  };

  const me = (request: IncomingMessage, response: ServerResponse) => {
    if (standIn.mode === 'user-down') return request.socket.destroy();
    const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '');
    const user = bearer ? accessTokens.get(bearer[1]!) : undefined;
    if (!user) return json(response, 401, { message: '401: Unauthorized', code: 0 });
    if (standIn.mode === 'user-garbage') return json(response, 200, { id: 42, name: ['not', 'a', 'user'] });
    return json(response, 200, { ...user, discriminator: '0', public_flags: 0, flags: 0, banner: null, accent_color: null });
  };

  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://stand-in');
    standIn.hits.push(`${request.method} ${url.pathname}`);
    if (request.method === 'GET' && url.pathname === '/oauth2/authorize') return authorize(url, response);
    if (request.method === 'POST' && url.pathname === '/api/oauth2/token') return void token(request, response);
    if (request.method === 'GET' && url.pathname === '/api/users/@me') return me(request, response);
    json(response, 404, { message: '404: Not Found', code: 0 });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const standIn: DiscordStandIn = {
    url: `http://127.0.0.1:${port}`,
    clientId,
    clientSecret,
    signIn(user) {
      signedIn = user;
    },
    mode: 'approve',
    tokenRequests: [],
    hits: [],
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return standIn;
}
