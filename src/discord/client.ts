// Discord's side of the link and login (contract section 11): the authorize address, the code exchange and the
// current user. OAuth 2.0 itself is arctic's: its generic OAuth2Client, given the three endpoints under DISCORD_URL
// (arctic's own Discord class hard-codes discord.com), with PKCE (S256) as arctic's Discord class uses it, and the
// client credentials as HTTP Basic authentication, which Discord's token endpoint accepts.
import { ArcticFetchError, CodeChallengeMethod, OAuth2Client, OAuth2RequestError, generateCodeVerifier, generateState } from 'arctic';
import type { DiscordSettings } from '../settings.ts';

/** What the service keeps of a Discord account (contract section 11). */
export interface DiscordAccount {
  /** The Discord user id (a snowflake, in decimal). */
  id: string;
  username: string;
  /** The avatar image on Discord's CDN, or '' when the account has none. */
  avatarUrl: string;
}

/**
 * Why Discord's side failed: `refused` Discord answered the exchange with an OAuth 2.0 error (a code used twice, a
 * wrong client secret); `unavailable` it could not be reached, or answered something that is not Discord's answer.
 */
export class DiscordFailure extends Error {
  constructor(
    readonly kind: 'refused' | 'unavailable',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** Where avatars are: always Discord's CDN, also when DISCORD_URL names a stand-in (docs/decisions.md). */
export const DISCORD_CDN = 'https://cdn.discordapp.com';

/** How long one request to Discord may take before the login is given up as "Discord unreachable". */
const REQUEST_TIMEOUT_MS = 10_000;

const SNOWFLAKE = /^\d{1,20}$/;
const AVATAR_HASH = /^(a_)?[0-9a-f]{16,64}$/;

/** Whether `value` is a Discord account id (a snowflake, 64 bits in decimal). */
export const isDiscordId = (value: string) => SNOWFLAKE.test(value);

/** The avatar image of account `id` on Discord's CDN for the avatar hash `hash`; '' for none or a malformed hash. */
export const discordAvatarUrl = (id: string, hash: unknown) =>
  typeof hash === 'string' && AVATAR_HASH.test(hash) ? `${DISCORD_CDN}/avatars/${id}/${hash}.png` : '';

export class DiscordClient {
  private readonly oauth: OAuth2Client;

  constructor(
    private readonly settings: DiscordSettings,
    redirectUri: string,
  ) {
    this.oauth = new OAuth2Client(settings.clientId, settings.clientSecret, redirectUri);
  }

  /** A fresh `state` and PKCE code verifier for one authorization request. */
  newRequest(): { state: string; codeVerifier: string } {
    return { state: generateState(), codeVerifier: generateCodeVerifier() };
  }

  /** The address that asks the player on Discord to let this site read their account (scope `identify`). */
  authorizeUrl(state: string, codeVerifier: string): string {
    const url = this.oauth.createAuthorizationURLWithPKCE(
      `${this.settings.url}/oauth2/authorize`,
      state,
      CodeChallengeMethod.S256,
      codeVerifier,
      ['identify'],
    );
    return url.href;
  }

  /** The Discord account that the authorization `code` from the callback stands for. */
  async accountOf(code: string, codeVerifier: string): Promise<DiscordAccount> {
    const accessToken = await this.exchange(code, codeVerifier);
    let response: Response;
    try {
      response = await fetch(`${this.settings.url}/api/users/@me`, {
        headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' },
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
    } catch (error) {
      throw new DiscordFailure('unavailable', 'Discord could not be reached for the account', { cause: error });
    }
    const user = response.ok ? await response.json().catch(() => null) : (await response.body?.cancel(), null);
    if (!user || typeof user !== 'object') throw new DiscordFailure('unavailable', `Discord answered ${response.status} for the account`);
    const { id, username, avatar } = user as { id?: unknown; username?: unknown; avatar?: unknown };
    if (typeof id !== 'string' || !SNOWFLAKE.test(id))
      throw new DiscordFailure('unavailable', 'Discord sent an account without a valid id');
    if (typeof username !== 'string' || username.length < 1 || username.length > 64)
      throw new DiscordFailure('unavailable', 'Discord sent an account without a valid username');
    if (avatar !== null && avatar !== undefined && (typeof avatar !== 'string' || !AVATAR_HASH.test(avatar)))
      throw new DiscordFailure('unavailable', 'Discord sent an account with an invalid avatar');
    return { id, username, avatarUrl: discordAvatarUrl(id, avatar) };
  }

  /** The access token for `code` (arctic's token request), within the time limit. */
  private async exchange(code: string, codeVerifier: string): Promise<string> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(
        () => reject(new DiscordFailure('unavailable', 'Discord did not answer the code exchange in time')),
        REQUEST_TIMEOUT_MS,
      );
    });
    try {
      const tokens = await Promise.race([
        this.oauth.validateAuthorizationCode(`${this.settings.url}/api/oauth2/token`, code, codeVerifier),
        timeout,
      ]);
      return tokens.accessToken();
    } catch (error) {
      if (error instanceof DiscordFailure) throw error;
      if (error instanceof OAuth2RequestError)
        throw new DiscordFailure('refused', `Discord refused the code: ${error.code}`, { cause: error });
      if (error instanceof ArcticFetchError) throw new DiscordFailure('unavailable', 'Discord could not be reached', { cause: error });
      // UnexpectedResponseError, UnexpectedErrorResponseBodyError, a token answer without access_token.
      throw new DiscordFailure('unavailable', 'Discord answered the code exchange with something unexpected', { cause: error });
    } finally {
      clearTimeout(timer);
    }
  }
}
