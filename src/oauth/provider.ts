// Yggdrasil Connect's OpenID Provider (contract section 18): oidc-provider, configured for launchers, with its
// state in the database (adapter.ts), its ID-token key in signing_keys and its cookie keys derived from JWT_SECRET,
// so that every instance answers alike. Rules the library lacks are added around it here: user codes of the
// service's code alphabet with `interval` and the `/device` page in the device answer, `slow_down`, unknown scopes and
// Select + Read refused, and `unauthorized_client` for a client without the device grant; and registered clients'
// secrets are compared hashed. The interaction cookie goes to the consent API (CONSENT_API_PATH), which accepts a
// consent only from the browser that began the request (contract 15b).
import { createPrivateKey, createPublicKey } from 'node:crypto';
import type { Kysely } from 'kysely';
import Provider, { errors, type KoaContextWithOIDC } from 'oidc-provider';
import type { Clock } from '../clock.ts';
import { deriveKey, SealedBox } from '../crypto/sealed-box.ts';
import type { Database } from '../database/schema.ts';
import { notePoll } from '../sessions/oauth.ts';
import { storedPrivateKey } from '../signing/service-key.ts';
import { databaseAdapter, modelKey } from './adapter.ts';
import { clientMetadata, clientSecretMatches, DEVICE_GRANT, isLoopbackRedirect } from './clients.ts';
import { SCOPES, SUPPORTED_SCOPES } from '../shared/oauth-scopes.ts';
import { OAUTH_ACCESS_TOKEN_SECONDS, type OAuthGrants } from './grants.ts';
import { newUserCode, shownUserCode } from './user-codes.ts';

export const ROUTES = {
  authorization: '/oauth/authorize',
  device_authorization: '/oauth/device',
  token: '/oauth/token',
  userinfo: '/oauth/userinfo',
  jwks: '/oauth/jwks',
  revocation: '/oauth/revoke',
  // The library's own page: never routed to it (the service's page /device takes its place).
  code_verification: '/oauth/device/verify',
} as const;

/**
 * Where the consent pages' API lives: the library's interaction cookie (`_interaction`, naming the request this browser
 * began) is sent there, and only there, so that a consent counts only from that browser.
 */
export const CONSENT_API_PATH = '/api/oauth';

/** Seconds a launcher waits between polls of a device code (RFC 8628 interval); a sooner poll gets slow_down. */
export const DEVICE_POLL_INTERVAL = 5;
/** A device code, and an authorization request waiting for the player, end this long after they were made
 * (contract 15b): a stranger's unfinished requests do not pile up. */
export const UNFINISHED_REQUEST_SECONDS = 600;
/** A refresh token lives this long from its last use: each use rotates it into a new one. */
export const REFRESH_TOKEN_SECONDS = 30 * 86400;
/** The page where a player logs in and consents to an authorization request (web/src). */
export const consentPage = (uid: string) => `/authorize?uid=${encodeURIComponent(uid)}`;

export interface ProviderDeps {
  db: Kysely<Database>;
  clock: Clock;
  publicUrl: string;
  jwtSecret: string;
  totpKey: string;
  grants: OAuthGrants;
  sharedClientId: string;
}

export async function createProvider(deps: ProviderDeps): Promise<Provider> {
  const { db, clock, publicUrl, grants, sharedClientId } = deps;
  const key = createPrivateKey(await storedPrivateKey(db, clock, 'oauth-id-token', 2048));
  const jwk = key.export({ format: 'jwk' });
  const kid = deriveKey(createPublicKey(key).export({ type: 'spki', format: 'der' }).toString('base64'), 'kid')
    .toString('base64url')
    .slice(0, 16);
  const adapter = databaseAdapter(db, clock, new SealedBox(deps.totpKey, 'skin service: oauth device codes'), {
    saved: (model, id, payload) => grants.tokenSaved(model, id, payload),
    grantRevoked: (grantId) => grants.revokeByKey(grantId),
    client: (id) => clientMetadata(db, id),
  });

  const provider = new Provider(publicUrl, {
    adapter,
    jwks: { keys: [{ ...jwk, kid, alg: 'RS256', use: 'sig' }] },
    cookies: {
      keys: [deriveKey(deps.jwtSecret, 'skin service: oauth cookies').toString('base64url')],
      // The interaction cookie's path: it is set where the request is sent on (the /authorize page) unless said here.
      short: { httpOnly: true, sameSite: 'lax', path: CONSENT_API_PATH },
    },
    routes: ROUTES,
    responseTypes: ['code'],
    subjectTypes: ['public'],
    clientAuthMethods: ['none', 'client_secret_basic', 'client_secret_post'],
    scopes: SUPPORTED_SCOPES,
    claims: {
      openid: ['sub'],
      profile: ['nickname', 'picture'],
      email: ['email', 'email_verified'],
      [SCOPES.select]: ['selectedProfile'],
      [SCOPES.read]: ['availableProfiles'],
    },
    // The ID token carries every claim its scopes grant (selectedProfile above all), as launchers read it there.
    conformIdTokenClaims: false,
    extraParams: {
      // Not a parameter of its own: the hook that sees every authorization and device request. A scope this service
      // does not know is refused (contract 15b) rather than dropped quietly: the library drops it from `value`, so the
      // request as sent is read. Select and Read together are refused as LittleSkin does.
      scope(ctx: KoaContextWithOIDC, value: string | undefined) {
        const sent = (ctx.method === 'POST' ? ctx.oidc?.body : ctx.query)?.scope;
        const unknown = (typeof sent === 'string' ? sent.split(' ') : []).find(
          (scope) => scope !== '' && !SUPPORTED_SCOPES.includes(scope),
        );
        if (unknown !== undefined) throw new errors.InvalidScope('requested scope is not supported', unknown);
        const asked = new Set(value?.split(' '));
        if (asked.has(SCOPES.select) && asked.has(SCOPES.read))
          throw new errors.InvalidScope(`${SCOPES.select} and ${SCOPES.read} cannot be asked together`, SCOPES.read);
      },
    },
    async findAccount(_ctx: unknown, subject: string, token?: { grantId?: string }) {
      if ((await grants.userOf(subject)) === null) return undefined;
      return { accountId: subject, claims: (_use: string, scope: string) => grants.claims(subject, token?.grantId, scope) };
    },
    features: {
      devInteractions: { enabled: false },
      deviceFlow: { enabled: true },
      revocation: { enabled: true },
      userinfo: { enabled: true },
      introspection: { enabled: false },
      // Discovery names only what is served (contract 15b): neither pushed requests nor the library's logout page.
      pushedAuthorizationRequests: { enabled: false },
      rpInitiatedLogout: { enabled: false },
    },
    pkce: { required: () => true },
    rotateRefreshToken: true,
    // Tokens end with their grant or their own life, never with the library's browser session.
    expiresWithSession: () => false,
    ttl: {
      AccessToken: OAUTH_ACCESS_TOKEN_SECONDS,
      AuthorizationCode: 60,
      DeviceCode: UNFINISHED_REQUEST_SECONDS,
      IdToken: 3600,
      Interaction: UNFINISHED_REQUEST_SECONDS,
      Session: 3600,
      RefreshToken: REFRESH_TOKEN_SECONDS,
      // A grant lasts while its refresh tokens do; revoking it is the way it ends.
      Grant: 10 * 365 * 86400,
    },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => consentPage(interaction.uid) },
    discovery: { shared_client_id: sharedClientId },
    enabledJWA: { idTokenSigningAlgValues: ['RS256'] },
    renderError(ctx: KoaContextWithOIDC, out: Record<string, string>) {
      ctx.body = out;
    },
  });
  // Behind the service: it is told the public address by the request's forwarded headers (routes.ts sets them).
  provider.proxy = true;

  // The shared client takes any loopback redirect, whatever its path (launchers choose their own).
  const redirectUriAllowed = provider.Client.prototype.redirectUriAllowed;
  provider.Client.prototype.redirectUriAllowed = function (this: { clientId: string }, value: string) {
    return this.clientId === sharedClientId ? isLoopbackRedirect(value) : redirectUriAllowed.call(this, value);
  };

  // A registered client's secret is stored hashed: the library holds the hash as the secret (clients.ts) and this
  // compares the hash of the one sent (its own comparison wants the secret in clear).
  provider.Client.prototype.compareClientSecret = function (this: { clientSecret?: string }, sent: string) {
    return this.clientSecret !== undefined && clientSecretMatches(this.clientSecret, sent);
  };

  provider.use(async (ctx, next) => {
    if (ctx.path === ROUTES.authorization && ctx.method === 'GET') askForConsent(ctx);
    await next();
    if (ctx.oidc?.route === 'device_authorization' && ctx.status === 200) await ownUserCode(provider, ctx, publicUrl);
    if (ctx.oidc?.route === 'device_authorization' && ctx.status === 400) unauthorizedClient(ctx);
    if (ctx.oidc?.route === 'token' && ctx.body?.error === 'authorization_pending') await slowDown(db, clock, ctx);
  });
  return provider;
}

/**
 * Every authorization request passes the consent page, where the player picks the profile: a request without a
 * prompt is made prompt=consent (which also keeps offline_access, which the library drops without it).
 */
function askForConsent(ctx: KoaContextWithOIDC) {
  if (ctx.query.prompt === undefined) ctx.query = { ...ctx.query, prompt: 'consent' };
}

/**
 * A client not allowed the device grant asking for a device code: RFC 8628 3.2 (and RFC 6749 5.2) name the error
 * unauthorized_client, where the library says invalid_request.
 */
function unauthorizedClient(ctx: KoaContextWithOIDC) {
  const grants = ctx.oidc?.client?.grantTypes;
  if (grants !== undefined && !grants.includes(DEVICE_GRANT) && ctx.body?.error === 'invalid_request')
    ctx.body = { ...ctx.body, error: 'unauthorized_client' };
}

/** The device answer with the service's user code, the /device page and the polling interval. */
async function ownUserCode(provider: Provider, ctx: KoaContextWithOIDC, publicUrl: string) {
  const code = await provider.DeviceCode.find(ctx.body.device_code);
  if (!code) return;
  code.userCode = newUserCode();
  await code.save();
  const shown = shownUserCode(code.userCode);
  ctx.body = {
    ...ctx.body,
    user_code: shown,
    verification_uri: `${publicUrl}/device`,
    verification_uri_complete: `${publicUrl}/device?user_code=${shown}`,
    interval: DEVICE_POLL_INTERVAL,
  };
}

/** RFC 8628 3.5: a poll sooner than the interval after the previous one of the same code is told slow_down. */
async function slowDown(db: Kysely<Database>, clock: Clock, ctx: KoaContextWithOIDC) {
  const deviceCode = ctx.oidc?.params?.device_code;
  if (typeof deviceCode !== 'string') return;
  const id = modelKey('DeviceCode', deviceCode);
  const now = clock.now();
  const polledAt = await notePoll(db, id, now);
  if (polledAt !== null && now - polledAt < DEVICE_POLL_INTERVAL * 1000)
    ctx.body = { error: 'slow_down', error_description: `poll at most every ${DEVICE_POLL_INTERVAL} seconds` };
}
