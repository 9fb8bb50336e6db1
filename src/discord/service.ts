// Linking a Discord account and logging in with it (contract section 11). HTTP-free: the routes call these.
// The state of each authorization request and the one-time code of a login are kept in the database (hashed, used up
// by a conditional delete), so that the instance Discord sends the browser back to need not be the one that began.
// Both are bound to the browser that began (contract section 15): it holds a random nonce (the routes keep it in a
// cookie) whose hash goes with the state and then with the code, so that a callback address or a code carried to
// another browser (a login forced on a victim, or the victim's Discord linked to an attacker's account) does nothing.
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Caller } from '../accounts/authenticate.ts';
import type { Credentials, Reauthentication } from '../accounts/credentials.ts';
import type { LoginFailures } from '../accounts/login-failures.ts';
import { STANDING_MESSAGES, standingProblem } from '../accounts/standing.ts';
import type { Tokens } from '../accounts/tokens.ts';
import { openWebSession } from '../accounts/web-session.ts';
import { actorOf, recordAudit } from '../audit/audit.ts';
import type { Clock } from '../clock.ts';
import { isPostgres, isUniqueViolation } from '../database/dialect.ts';
import type { Database } from '../database/schema.ts';
import { forbidden, notFound, totpRequired, unauthorized } from '../http/envelope.ts';
import { tokenHash } from '../http/secrets.ts';
import { languageOfUser, queueMail } from '../mail/outbox.ts';
import { discordLinkedMessage } from '../mail/templates.ts';
import type { RateLimiter, RateRule } from '../ratelimit/limiter.ts';
import { type DiscordAccount, type DiscordClient, DiscordFailure } from './client.ts';

/** How long a player has on Discord's page before the request's state is refused (contract section 11). */
export const STATE_LIFETIME_MS = 10 * 60_000;
/** How long the page has to exchange a login's one-time code (contract section 11). */
export const LOGIN_CODE_LIFETIME_MS = 2 * 60_000;

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

/** A flow begun: Discord's consent page, and the nonce the browser keeps (in a cookie) to finish it. */
export interface Begun {
  url: string;
  browserNonce: string;
}

/**
 * Where the browser goes after the callback, and whether its nonce is still needed: a login that got its one-time code
 * exchanges it from the same browser; a callback refused for another browser leaves that browser's own flow alone.
 */
export interface CallbackOutcome {
  location: string;
  keepNonce: boolean;
}

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

const STATE_FORMAT = /^[A-Za-z0-9_-]{16,128}$/;
const LOGIN_CODE_FORMAT = /^[A-Za-z0-9_-]{43}$/;
const NOT_SET_UP = 'discord.notSetUp';
const SECOND_FACTOR_NEEDED = 'discord.secondFactorNeeded';
const CODE_UNUSABLE = 'discord.codeUnusable';

export class DiscordService {
  constructor(private readonly deps: DiscordDeps) {}

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
    const refusal = await this.deps.credentials.confirmOwner(userId, proof.password, proof.totp, clientAddress);
    if (refusal === 'password') throw unauthorized('discord.passwordWrong', { field: 'password' });
    if (refusal === 'code-required') throw totpRequired('discord.linkNeedsCode');
    if (refusal === 'code-wrong') throw unauthorized('discord.linkCodeWrong', { field: 'totp' });
    return this.begin(client, 'link', userId, clientAddress);
  }

  /** Begins a login with Discord. */
  async startLogin(clientAddress: string): Promise<Begun> {
    return this.begin(this.client, 'login', null, clientAddress);
  }

  private async begin(client: DiscordClient, purpose: 'link' | 'login', userId: number | null, clientAddress: string): Promise<Begun> {
    await this.deps.limiter.take(DISCORD_STARTS_PER_ADDRESS, clientAddress);
    const { db, clock } = this.deps;
    const { state, codeVerifier } = client.newRequest();
    const browserNonce = randomBytes(32).toString('base64url');
    const now = clock.now();
    // Requests nobody finished go with the next one begun, so the table holds at most ten minutes of them.
    await db.deleteFrom('discord_states').where('expires_at', '<=', now).execute();
    await db
      .insertInto('discord_states')
      .values({
        state_hash: tokenHash(state),
        purpose,
        user_id: userId,
        code_verifier: codeVerifier,
        browser_hash: tokenHash(browserNonce),
        created_at: now,
        expires_at: now + STATE_LIFETIME_MS,
      })
      .execute();
    return { url: client.authorizeUrl(state, codeVerifier), browserNonce };
  }

  /**
   * Discord sent the browser back (with the nonce it holds, if any): links the account, or hands a login its one-time
   * code. Answers where the browser goes next (under PUBLIC_URL); never throws for anything the request or Discord
   * did, and changes nothing unless it all worked.
   */
  async callback(query: CallbackQuery, browserNonce: string | undefined): Promise<CallbackOutcome> {
    const client = this.client;
    const { db, clock } = this.deps;
    // This browser's request, once taken, has ended whatever comes next; before that, this browser's flow (if any) is
    // left as it was.
    const ended = (location: string): CallbackOutcome => ({ location, keepNonce: false });
    const untouched = (problem: CallbackProblem): CallbackOutcome => ({ location: this.problem(problem), keepNonce: true });
    if (typeof query.state !== 'string' || !STATE_FORMAT.test(query.state)) return untouched('state');
    if (browserNonce === undefined) return untouched('browser');
    // Single use: the delete takes the row, so a second callback with the same state (a replay, or another instance
    // handling the same one at the same moment) finds nothing. Only the browser that began takes it: in another, the
    // request stays as it was (and that browser's own flow, if any, too).
    const request = await db
      .deleteFrom('discord_states')
      .where('state_hash', '=', tokenHash(query.state))
      .where('browser_hash', '=', tokenHash(browserNonce))
      .returningAll()
      .executeTakeFirst();
    if (!request) return untouched('state');
    if (request.expires_at <= clock.now()) return ended(this.problem('state'));
    if (query.error !== undefined) return ended(this.problem(query.error === 'access_denied' ? 'denied' : 'refused'));
    if (typeof query.code !== 'string' || query.code === '' || query.code.length > 512) return ended(this.problem('refused'));
    let account: DiscordAccount;
    try {
      account = await client.accountOf(query.code, request.code_verifier);
    } catch (error) {
      if (!(error instanceof DiscordFailure)) throw error;
      this.deps.log.warn({ err: error, cause: error.cause }, 'Discord login failed on Discord’s side');
      return ended(this.problem(error.kind === 'refused' ? 'refused' : 'unavailable'));
    }
    if (request.purpose === 'link' && request.user_id !== null) return ended(await this.link(request.user_id, account));
    return this.loginCode(account, request.browser_hash);
  }

  private async link(userId: number, account: DiscordAccount): Promise<string> {
    const { db, clock } = this.deps;
    try {
      const problem = await db.transaction().execute(async (trx) => {
        let locked = trx.selectFrom('users').selectAll().where('id', '=', userId);
        if (isPostgres(db)) locked = locked.forUpdate();
        const user = await locked.executeTakeFirst();
        if (!user || standingProblem({ ...user, level: user.perms })) return 'account' as const;
        const holder = await trx.selectFrom('users').select('id').where('dsid', '=', account.id).executeTakeFirst();
        if (holder && holder.id !== userId) return 'taken' as const;
        const now = clock.now();
        await trx
          .updateTable('users')
          .set({ dsid: account.id, discord_username: account.username, discord_avatar: account.avatarUrl, updated_at: now })
          .where('id', '=', userId)
          .execute();
        // The player hears of every new way into their account, in case it was not them.
        const linked = discordLinkedMessage(await languageOfUser(trx, user.id), account.username, `${this.deps.publicUrl}/home`);
        await queueMail(trx, now, user.mail, linked);
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
      });
      if (problem) return this.problem(problem);
    } catch (error) {
      // Two accounts linking the same Discord account at the same moment: the unique index keeps one.
      if (isUniqueViolation(error)) return this.problem('taken');
      throw error;
    }
    this.deps.mailQueued();
    return `${this.deps.publicUrl}/home`;
  }

  /**
   * A linked Discord account gets a one-time code for the page, bound to the browser that began (`browserHash`); an
   * unlinked one the login page's explanation.
   */
  private async loginCode(account: DiscordAccount, browserHash: string): Promise<CallbackOutcome> {
    const { db, clock, publicUrl } = this.deps;
    const user = await db
      .selectFrom('users')
      .select(['id', 'discord_username', 'discord_avatar'])
      .where('dsid', '=', account.id)
      .executeTakeFirst();
    if (!user) return { location: `${publicUrl}/login?discord=not-linked`, keepNonce: false };
    const code = randomBytes(32).toString('base64url');
    const now = clock.now();
    await db.transaction().execute(async (trx) => {
      await trx.deleteFrom('discord_login_codes').where('expires_at', '<=', now).execute();
      await trx
        .insertInto('discord_login_codes')
        .values({
          code_hash: tokenHash(code),
          user_id: user.id,
          browser_hash: browserHash,
          created_at: now,
          expires_at: now + LOGIN_CODE_LIFETIME_MS,
        })
        .execute();
      // Discord names and avatars change; the link shows the current ones.
      if (user.discord_username !== account.username || user.discord_avatar !== account.avatarUrl) {
        await trx
          .updateTable('users')
          .set({ discord_username: account.username, discord_avatar: account.avatarUrl })
          .where('id', '=', user.id)
          .execute();
      }
    });
    return { location: `${publicUrl}${LOGIN_PAGE_PATH}?code=${code}`, keepNonce: true };
  }

  private problem(problem: CallbackProblem): string {
    return `${this.deps.publicUrl}${LOGIN_PAGE_PATH}?problem=${problem}`;
  }

  /**
   * The page's one-time code for a session, in the browser that began the login (`browserNonce`), with the rules of a
   * password login: the account's standing and its second factor. The code works once; a refusal only for a missing
   * second factor or for another browser leaves it usable (the page asks for the code and sends it again; the right
   * browser still may), any other refusal uses it up.
   */
  async exchange(
    code: string,
    totp: string | undefined,
    browserNonce: string | undefined,
    clientAddress: string,
  ): Promise<{ jwt: string; url: string }> {
    if (!this.deps.client) throw notFound(NOT_SET_UP);
    const { db, clock, limiter, credentials, tokens, publicUrl } = this.deps;
    // A browser without a nonce began no login: nothing is checked, so nothing counts.
    if (browserNonce === undefined) throw unauthorized(CODE_UNUSABLE);
    // Counted before the check, so that requests arriving together check no more codes than the limit allows.
    await limiter.take(DISCORD_CODE_FAILURES_PER_ADDRESS, clientAddress);
    const codeHash = tokenHash(code);
    const found = LOGIN_CODE_FORMAT.test(code)
      ? await db
          .selectFrom('discord_login_codes')
          .innerJoin('users', 'users.id', 'discord_login_codes.user_id')
          .selectAll('users')
          .select('discord_login_codes.browser_hash')
          .where('discord_login_codes.code_hash', '=', codeHash)
          .where('discord_login_codes.expires_at', '>', clock.now())
          .executeTakeFirst()
      : undefined;
    if (!found) throw unauthorized(CODE_UNUSABLE);
    await limiter.refund(DISCORD_CODE_FAILURES_PER_ADDRESS, clientAddress);
    // The right code in another browser (a login forced on someone): refused, neither counted nor used up.
    const { browser_hash: browserHash, ...user } = found;
    if (browserHash !== tokenHash(browserNonce)) throw unauthorized(CODE_UNUSABLE);
    const useUp = async () =>
      (await db.deleteFrom('discord_login_codes').where('code_hash', '=', codeHash).executeTakeFirst()).numDeletedRows === 1n;
    // In the password login's order: the second factor, then the account's standing (an unfinished registration goes
    // on to step 3, as from the web login).
    const second = await credentials.checkSecondFactor(user, totp, clientAddress);
    if (second.refusal === 'code-required') throw totpRequired(SECOND_FACTOR_NEEDED);
    if (second.refusal) {
      await useUp();
      throw unauthorized('discord.totpWrong');
    }
    const problem = standingProblem({ ...user, level: user.perms }, ['unfinished']);
    if (problem) {
      await useUp();
      throw forbidden(STANDING_MESSAGES[problem]);
    }
    // Two exchanges of one code at the same moment: one delete takes the row, the other is refused.
    if (!(await useUp())) throw unauthorized(CODE_UNUSABLE);
    return openWebSession(db, tokens, clock, publicUrl, user);
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
        actor: actorOf(caller.user),
        action: 'discord.unlink',
        target: caller.user.id,
        details: { discord_id: previous },
      });
      return true;
    });
    if (!result) throw notFound('discord.notLinked');
  }
}
