// Linking a Discord account and logging in with it (contract section 11). HTTP-free: the routes call these.
// The request's state and the login's one-time code, both bound to the browser that began, are every external
// login's (src/external-login/flows.ts); what is Discord's here is its account and where it is kept (users.dsid).
import type { Kysely } from 'kysely';
import type { Caller } from '../accounts/authenticate.ts';
import type { Credentials, Reauthentication } from '../accounts/credentials.ts';
import type { LoginFailures } from '../accounts/login-failures.ts';
import type { Tokens } from '../accounts/tokens.ts';
import { actorOf, recordAudit } from '../audit/audit.ts';
import type { Clock } from '../clock.ts';
import type { Database } from '../database/schema.ts';
import { type Begun, type CallbackOutcome, ended, linkableUser, LoginFlows } from '../external-login/flows.ts';
import { notFound } from '../http/envelope.ts';
import { queueSecurityMail } from '../mail/outbox.ts';
import type { RateLimiter, RateRule } from '../ratelimit/limiter.ts';
import { type DiscordAccount, type DiscordClient, DiscordFailure } from './client.ts';

/** Authorization requests begun per client address: each one writes a row that lives 10 minutes. */
export const DISCORD_STARTS_PER_ADDRESS: RateRule = {
  name: 'discord-start-ip',
  limit: 30,
  windowMs: 15 * 60_000,
  message: 'discord.tooManyStarts',
  perClientAddress: true,
};

/** Wrong login codes per client address: the Discord exchange's own kind of code limit (contract section 15). */
export const DISCORD_CODE_FAILURES_PER_ADDRESS: RateRule = {
  name: 'discord-code-fail-ip',
  limit: 10,
  windowMs: 15 * 60_000,
  message: 'limits.codeFailuresPerAddress',
  perClientAddress: true,
};

export type { Begun, CallbackOutcome } from '../external-login/flows.ts';

/**
 * Why a callback ended without linking or logging in; the page at /discord?problem= says it in words.
 * denied: the player did not allow it on Discord; refused: Discord answered with another error; state: the state is
 * unknown, expired or used (tampered, replayed, begun on another site or in another browser); taken: that Discord account is linked to
 * another account here; unavailable: Discord could not be reached or answered garbage; account: the account that
 * asked for the link can no longer take it (banned); browser: this browser began nothing (no nonce: the address was
 * carried here from another browser, or it keeps no cookies).
 */
export type CallbackProblem = 'denied' | 'refused' | 'state' | 'taken' | 'unavailable' | 'account' | 'browser';

/** The callback's query, as Discord (or anyone) sent it: unchecked by the route, checked here. */
export interface CallbackQuery {
  code?: unknown;
  state?: unknown;
  error?: unknown;
}

export interface DiscordDeps {
  db: Kysely<Database>;
  clock: Clock;
  /** null: DISCORD_CLIENT_ID and DISCORD_CLIENT_SECRET are not set; only unlinking works. */
  client: DiscordClient | null;
  tokens: Tokens;
  credentials: Credentials;
  failures: LoginFailures;
  limiter: RateLimiter;
  publicUrl: string;
  log: { warn(details: object, message: string): void };
  /** Wakes the mail worker after a transaction that queued mail has committed. */
  mailQueued: () => void;
}

/** Where the web app exchanges a login's one-time code. */
export const LOGIN_PAGE_PATH = '/discord';

const NOT_SET_UP = 'discord.notSetUp';
/** The value of the provider column for Discord's requests and codes. */
const PROVIDER = 'discord';

export class DiscordService {
  private readonly flows: LoginFlows;

  constructor(private readonly deps: DiscordDeps) {
    this.flows = new LoginFlows(deps, {
      starts: DISCORD_STARTS_PER_ADDRESS,
      codeFailures: DISCORD_CODE_FAILURES_PER_ADDRESS,
      messages: { codeUnusable: 'discord.codeUnusable', secondFactorNeeded: 'discord.secondFactorNeeded', totpWrong: 'discord.totpWrong' },
      owns: (provider) => provider === PROVIDER,
    });
  }

  get enabled(): boolean {
    return this.deps.client !== null;
  }

  private get client(): DiscordClient {
    if (!this.deps.client) throw notFound(NOT_SET_UP);
    return this.deps.client;
  }

  /**
   * Begins linking the caller's account once they proved it is them (a stolen session alone must not add a way in):
   * the password, and the second factor when two-factor login is on; a wrong one counts as a failed login.
   */
  async startLink(caller: Caller, proof: Reauthentication, clientAddress: string): Promise<Begun> {
    const client = this.client;
    const userId = caller.user.id;
    await this.deps.credentials.requireOwner(userId, proof, clientAddress, {
      passwordWrong: 'discord.passwordWrong',
      needsCode: 'discord.linkNeedsCode',
      codeWrong: 'discord.linkCodeWrong',
    });
    return this.begin(client, 'link', userId, clientAddress);
  }

  /** Begins a login with Discord. */
  async startLogin(clientAddress: string): Promise<Begun> {
    return this.begin(this.client, 'login', null, clientAddress);
  }

  private async begin(client: DiscordClient, purpose: 'link' | 'login', userId: number | null, clientAddress: string): Promise<Begun> {
    const secrets = client.newRequest();
    const browserNonce = await this.flows.begin(PROVIDER, purpose, userId, secrets, clientAddress);
    return { url: client.authorizeUrl(secrets.state, secrets.codeVerifier), browserNonce };
  }

  /**
   * Discord sent the browser back (with the nonce it holds, if any): links the account, or hands a login its one-time
   * code. Answers where the browser goes next (under PUBLIC_URL); never throws for anything the request or Discord
   * did, and changes nothing unless it all worked.
   */
  async callback(query: CallbackQuery, browserNonce: string | undefined): Promise<CallbackOutcome> {
    const client = this.client;
    // This browser's request, once taken, has ended whatever comes next; before that, this browser's flow (if any) is
    // left as it was.
    const { request, outcome } = await this.flows.takeOrEnd(PROVIDER, query.state, browserNonce, (problem) => this.problem(problem));
    if (outcome) return outcome;
    if (query.error !== undefined) return ended(this.problem(query.error === 'access_denied' ? 'denied' : 'refused'));
    if (typeof query.code !== 'string' || query.code === '' || query.code.length > 512) return ended(this.problem('refused'));
    let account: DiscordAccount;
    try {
      account = await client.accountOf(query.code, request.codeVerifier);
    } catch (error) {
      if (!(error instanceof DiscordFailure)) throw error;
      this.deps.log.warn({ err: error, cause: error.cause }, 'Discord login failed on Discord’s side');
      return ended(this.problem(error.kind === 'refused' ? 'refused' : 'unavailable'));
    }
    if (request.purpose === 'link' && request.userId !== null) return ended(await this.link(request.userId, account));
    return this.loginCode(account, request.browserHash);
  }

  private async link(userId: number, account: DiscordAccount): Promise<string> {
    const { clock } = this.deps;
    return this.flows.link(
      async (trx) => {
        const user = await linkableUser(trx, userId, clock.now());
        if (!user) return 'account' as const;
        const holder = await trx.selectFrom('users').select('id').where('dsid', '=', account.id).executeTakeFirst();
        if (holder && holder.id !== userId) return 'taken' as const;
        const now = clock.now();
        await trx
          .updateTable('users')
          .set({ dsid: account.id, discord_username: account.username, discord_avatar: account.avatarUrl, updated_at: now })
          .where('id', '=', userId)
          .execute();
        // The player hears of every new way into their account, in case it was not them.
        await queueSecurityMail(trx, now, user, { kind: 'discordLinked', name: account.username }, this.deps.publicUrl);
        await recordAudit(trx, now, {
          actor: actorOf(user),
          action: 'discord.link',
          target: user.id,
          details: {
            discord_id: account.id,
            discord_username: account.username,
            ...(user.dsid !== null && user.dsid !== account.id ? { replaced_discord_id: user.dsid } : {}),
          },
        });
        return null;
      },
      (problem) => this.problem(problem),
    );
  }

  /**
   * A linked Discord account gets a one-time code for the page, bound to the browser that began (`browserHash`); an
   * unlinked one the login page's explanation.
   */
  private async loginCode(account: DiscordAccount, browserHash: string): Promise<CallbackOutcome> {
    const { db, publicUrl } = this.deps;
    const user = await db
      .selectFrom('users')
      .select(['id', 'discord_username', 'discord_avatar'])
      .where('dsid', '=', account.id)
      .executeTakeFirst();
    if (!user) return { location: `${publicUrl}/login?discord=not-linked`, keepNonce: false };
    const code = await db.transaction().execute(async (trx) => {
      const issued = await this.flows.issueCode(trx, PROVIDER, user.id, browserHash);
      // Discord names and avatars change; the link shows the current ones.
      if (user.discord_username !== account.username || user.discord_avatar !== account.avatarUrl) {
        await trx
          .updateTable('users')
          .set({ discord_username: account.username, discord_avatar: account.avatarUrl })
          .where('id', '=', user.id)
          .execute();
      }
      return issued;
    });
    return { location: `${publicUrl}${LOGIN_PAGE_PATH}?code=${code}`, keepNonce: true };
  }

  private problem(problem: CallbackProblem): string {
    return `${this.deps.publicUrl}${LOGIN_PAGE_PATH}?problem=${problem}`;
  }

  /** The page's one-time code for a session, with the rules of a password login (src/external-login/flows.ts). */
  async exchange(
    code: string,
    totp: string | undefined,
    browserNonce: string | undefined,
    clientAddress: string,
  ): Promise<{ jwt: string; url: string }> {
    if (!this.deps.client) throw notFound(NOT_SET_UP);
    const { jwt, url } = await this.flows.exchange(code, totp, browserNonce, clientAddress);
    return { jwt, url };
  }

  /** Unlinks the caller's Discord account. */
  async unlink(caller: Caller): Promise<void> {
    const { db, clock } = this.deps;
    const now = clock.now();
    const previous = caller.user.dsid;
    const result = await db.transaction().execute(async (trx) => {
      const updated = await trx
        .updateTable('users')
        .set({ dsid: null, discord_username: null, discord_avatar: null, updated_at: now })
        .where('id', '=', caller.user.id)
        .where('dsid', 'is not', null)
        .executeTakeFirst();
      if (updated.numUpdatedRows !== 1n) return false;
      await recordAudit(trx, now, {
        actor: caller.actor,
        action: 'discord.unlink',
        target: caller.user.id,
        details: { discord_id: previous },
      });
      return true;
    });
    if (!result) throw notFound('discord.notLinked');
  }
}
