// One OpenID Connect provider of OIDC_PROVIDERS, as the relying party sees it (contract section 26). The protocol is
// openid-client's (the certified relying party, docs/decisions.md): discovery, the authorization code flow with PKCE
// (S256) and nonce, the token request, and the ID token's checks (signature, iss, aud, exp, nonce). The ID token comes
// from the token endpoint, whose signature openid-client checks only when told to: enableNonRepudiationChecks.
import * as openid from 'openid-client';
import type { Clock } from '../clock.ts';
import type { OidcProviderSettings } from '../settings.ts';
import type { RequestSecrets } from '../external-login/flows.ts';

/** What the service keeps of a person the provider vouched for: the identity is the issuer and `sub`, never the mail. */
export interface OidcIdentity {
  issuer: string;
  subject: string;
  /** preferred_username, name, the mail address or the subject: what the profile shows. */
  name: string;
  email: string | null;
  emailVerified: boolean;
}

/**
 * Why the provider's side failed: `denied` the person did not allow it; `refused` the provider answered with an OAuth
 * error; `unavailable` it could not be reached (or its discovery never answered) or answered something unusable;
 * `untrusted` its ID token failed a check (signature, issuer, audience, expiry, nonce).
 */
export class OidcFailure extends Error {
  constructor(
    readonly kind: 'denied' | 'refused' | 'unavailable' | 'untrusted',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** How long one request to the provider may take. */
const TIMEOUT_SECONDS = 10;
/** A provider whose discovery failed is asked again at most this often, when someone needs it. */
export const DISCOVERY_RETRY_MS = 30_000;
/**
 * openid-client's error codes for answers that are no answer (not JSON, unreadable): the provider is as good as down.
 * Every other code is a check that failed (OAUTH_INVALID_RESPONSE also stands for a bad ID token signature).
 */
const GARBAGE = new Set(['OAUTH_PARSE_ERROR', 'OAUTH_RESPONSE_IS_NOT_JSON', 'OAUTH_RESPONSE_IS_NOT_CONFORM']);

export class OidcClient {
  private config: openid.Configuration | null = null;
  private discovering: Promise<openid.Configuration | null> | null = null;
  private lastAttempt = Number.NEGATIVE_INFINITY;
  private retryTimer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    readonly settings: OidcProviderSettings,
    private readonly redirectUri: string,
    private readonly clock: Clock,
    private readonly log: { warn(details: object, message: string): void },
  ) {}

  get id(): string {
    return this.settings.id;
  }

  /** Whether discovery has answered: until then the provider's button is hidden and its logins refused. */
  get available(): boolean {
    return this.config !== null;
  }

  /** Reads the provider's discovery document now; a provider that does not answer is retried in the background. */
  start(): Promise<unknown> {
    return this.discover();
  }

  /** Stops the background retry. */
  close(): void {
    this.closed = true;
    clearTimeout(this.retryTimer);
  }

  /** The configuration from discovery, asking once more if the last attempt failed a while ago; null: still down. */
  private async discover(): Promise<openid.Configuration | null> {
    if (this.config) return this.config;
    if (this.discovering) return this.discovering;
    if (this.clock.now() - this.lastAttempt < DISCOVERY_RETRY_MS) return null;
    this.lastAttempt = this.clock.now();
    const { issuer, clientId, clientSecret } = this.settings;
    const insecure = issuer.startsWith('http:');
    this.discovering = openid
      .discovery(
        new URL(issuer),
        clientId,
        { redirect_uris: [this.redirectUri], response_types: ['code'] },
        clientSecret === null ? openid.None() : openid.ClientSecretBasic(clientSecret),
        { timeout: TIMEOUT_SECONDS, ...(insecure ? { execute: [openid.allowInsecureRequests] } : {}) },
      )
      .then(
        (config) => {
          openid.enableNonRepudiationChecks(config);
          this.config = config;
          return config;
        },
        (error: unknown) => {
          this.log.warn({ err: error, provider: this.id }, 'OpenID Connect discovery failed; retried later');
          if (!this.closed) {
            clearTimeout(this.retryTimer);
            this.retryTimer = setTimeout(() => void this.discover(), DISCOVERY_RETRY_MS).unref();
          }
          return null;
        },
      )
      .finally(() => (this.discovering = null));
    return this.discovering;
  }

  private async configuration(): Promise<openid.Configuration> {
    const config = await this.discover();
    if (!config) throw new OidcFailure('unavailable', `The OpenID provider ${this.id} has not answered its discovery`);
    return config;
  }

  /** Whether it is up, asking again (not waiting for the answer) if it was down a while. */
  poke(): boolean {
    if (!this.config) void this.discover();
    return this.available;
  }

  /** Fresh secrets for one authorization request: state, PKCE code verifier, nonce. */
  newRequest(): Required<RequestSecrets> {
    return { state: openid.randomState(), codeVerifier: openid.randomPKCECodeVerifier(), nonce: openid.randomNonce() };
  }

  /** The provider's page that asks the person to let this site know who they are. */
  async authorizeUrl(secrets: Required<RequestSecrets>): Promise<string> {
    const config = await this.configuration();
    return openid.buildAuthorizationUrl(config, {
      redirect_uri: this.redirectUri,
      scope: this.settings.scopes,
      state: secrets.state,
      nonce: secrets.nonce,
      code_challenge: await openid.calculatePKCECodeChallenge(secrets.codeVerifier),
      code_challenge_method: 'S256',
    }).href;
  }

  /** The person the callback's query (`search`, with its question mark) stands for, every check of the library passed. */
  async identityOf(search: string, secrets: Required<RequestSecrets>): Promise<OidcIdentity> {
    const config = await this.configuration();
    let claims: openid.IDToken | undefined;
    try {
      const tokens = await openid.authorizationCodeGrant(config, new URL(`${this.redirectUri}${search}`), {
        pkceCodeVerifier: secrets.codeVerifier,
        expectedState: secrets.state,
        expectedNonce: secrets.nonce,
        idTokenExpected: true,
      });
      claims = tokens.claims();
      // A provider that keeps the person's name and mail out of the ID token gives them at its userinfo endpoint.
      if (claims && claims.email === undefined && claims.preferred_username === undefined && claims.name === undefined)
        claims = { ...(await openid.fetchUserInfo(config, tokens.access_token, claims.sub)), ...claims };
    } catch (error) {
      throw this.failure(error);
    }
    if (!claims || typeof claims.sub !== 'string' || claims.sub === '' || claims.sub.length > 255)
      throw new OidcFailure('untrusted', 'The ID token names no subject');
    const text = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value.trim().slice(0, 64) : null);
    const email = typeof claims.email === 'string' && claims.email.length <= 254 ? claims.email : null;
    return {
      issuer: claims.iss,
      subject: claims.sub,
      name: text(claims.preferred_username) ?? text(claims.name) ?? text(email) ?? claims.sub.slice(0, 64),
      email,
      emailVerified: email !== null && claims.email_verified === true,
    };
  }

  private failure(error: unknown): OidcFailure {
    if (error instanceof openid.AuthorizationResponseError)
      return new OidcFailure(error.error === 'access_denied' ? 'denied' : 'refused', `The provider answered ${error.error}`, {
        cause: error,
      });
    if (error instanceof openid.ResponseBodyError)
      return new OidcFailure('refused', `The provider refused the code: ${error.error}`, { cause: error });
    const code = (error as { code?: unknown }).code;
    // openid-client's own errors and oauth4webapi's (a failed check of the ID token: signature, claims, key) carry a code.
    if (typeof code === 'string' && code.startsWith('OAUTH_') && !GARBAGE.has(code))
      return new OidcFailure('untrusted', `The provider's answer failed a check: ${code}`, { cause: error });
    return new OidcFailure('unavailable', 'The provider could not be reached or answered garbage', { cause: error });
  }
}
