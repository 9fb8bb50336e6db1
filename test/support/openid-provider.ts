// An OpenID Provider in-process (oidc-provider, the certified implementation) as the stand-in of a community's
// Keycloak or Google (contract section 26), with its own signing key. The person signed in is whoever the test names
// with signIn(); its login and consent pages answer at once. `forgeIdToken` makes the token endpoint hand out an ID
// token signed by another key (same claims, same kid), as an attacker in the middle would.
import { createServer, type Server } from 'node:http';
import { exportJWK, generateKeyPair, decodeJwt, SignJWT } from 'jose';
import Provider from 'oidc-provider';
import type { OidcProviderSettings } from '../../src/settings.ts';

export interface OidcPerson {
  sub: string;
  email: string;
  email_verified: boolean;
  preferred_username: string;
}

export interface OpenIdStandIn {
  issuer: string;
  clientId: string;
  clientSecret: string;
  signIn(person: OidcPerson): void;
  forgeIdToken: boolean;
  close(): Promise<void>;
}

let people = 0;
/** A new person at the provider. */
export const oidcPerson = (overrides: Partial<OidcPerson> = {}): OidcPerson => {
  people += 1;
  const sub = `person-${process.pid}-${people}-${Math.random().toString(36).slice(2, 10)}`;
  return { sub, email: `${sub}@id.example`, email_verified: true, preferred_username: `member${people}`, ...overrides };
};

/** Starts the provider on `port` (0: any), for the client whose redirect URI is `redirectUri`. */
export async function startOpenIdStandIn(redirectUri: string, port = 0): Promise<OpenIdStandIn> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = { ...(await exportJWK(privateKey)), kid: 'stand-in', use: 'sig', alg: 'RS256' };
  const foreign = (await generateKeyPair('RS256')).privateKey;
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  let current: OidcPerson | null = null;
  const known = new Map<string, OidcPerson>();
  const clientId = 'skins';
  const clientSecret = 'stand-in-secret-of-the-skin-service';
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const provider: any = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    jwks: { keys: [jwk] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['preferred_username', 'name'] },
    findAccount: (_ctx: unknown, id: string) => {
      const person = known.get(id);
      return person && { accountId: id, claims: async () => ({ ...person }) };
    },
    pkce: { required: () => true },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    cookies: { keys: ['stand-in-cookie-key'] },
    features: { devInteractions: { enabled: false } },
  });
  const handle = provider.callback();
  const standIn: OpenIdStandIn = {
    issuer,
    clientId,
    clientSecret,
    forgeIdToken: false,
    signIn(person) {
      known.set(person.sub, person);
      current = person;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  server.on('request', async (request, response) => {
    try {
      if (request.url?.startsWith('/interaction/')) {
        const details = await provider.interactionDetails(request, response);
        if (details.prompt.name === 'login') {
          await provider.interactionFinished(request, response, { login: { accountId: current!.sub } }, { mergeWithLastSubmission: false });
          return;
        }
        const grant = new provider.Grant({ accountId: details.session.accountId, clientId: details.params.client_id });
        grant.addOIDCScope(String(details.params.scope));
        await provider.interactionFinished(
          request,
          response,
          { consent: { grantId: await grant.save() } },
          { mergeWithLastSubmission: true },
        );
        return;
      }
      if (standIn.forgeIdToken && request.url?.startsWith('/token')) {
        const end = response.end.bind(response);
        // eslint-disable-next-line @typescript-eslint/no-explicit-any
        (response as any).end = (chunk: Buffer | string) => {
          void (async () => {
            const body = JSON.parse(String(chunk));
            if (body.id_token) {
              body.id_token = await new SignJWT(decodeJwt(body.id_token))
                .setProtectedHeader({ alg: 'RS256', kid: 'stand-in' })
                .sign(foreign);
            }
            const text = JSON.stringify(body);
            response.setHeader('content-length', Buffer.byteLength(text));
            end(text);
          })();
          return response;
        };
      }
      handle(request, response);
    } catch (error) {
      response.statusCode = 500;
      response.end(String(error));
    }
  });
  return standIn;
}

/** A browser at the provider: follows its redirects (keeping its cookies) until it sends the browser back to `redirectUri`. */
export async function throughProvider(authorizeUrl: string, redirectUri: string): Promise<string> {
  const jar = new Map<string, string>();
  let url = authorizeUrl;
  for (let hop = 0; hop < 12; hop += 1) {
    if (url.startsWith(redirectUri)) return new URL(url).pathname + new URL(url).search;
    const cookie = [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await fetch(url, { redirect: 'manual', headers: cookie ? { cookie } : {} });
    for (const header of response.headers.getSetCookie()) {
      const [pair] = header.split(';');
      const [name, value] = pair!.split('=') as [string, string];
      if (/max-age=0|expires=Thu, 01 Jan 1970/i.test(header)) jar.delete(name.trim());
      else jar.set(name.trim(), value);
    }
    const location = response.headers.get('location');
    if (!location) throw new Error(`The provider answered ${response.status} at ${url}: ${await response.text()}`);
    url = new URL(location, url).href;
  }
  throw new Error('Too many redirects at the provider');
}

/** The OIDC_PROVIDERS entry of the service for `standIn`: provider `id`, named "Craft community". */
export const standInProvider = (standIn: OpenIdStandIn, id: string, register: boolean): OidcProviderSettings => ({
  id,
  issuer: standIn.issuer,
  clientId: standIn.clientId,
  clientSecret: standIn.clientSecret,
  name: 'Craft community',
  scopes: 'openid profile email',
  register,
});
