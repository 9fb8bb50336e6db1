// Linking a Discord account and logging in with it (contract section 11). HTTP-free: the routes call these.
// The state of each authorization request and the one-time code of a login are kept in the database (hashed, used up
// by a conditional delete), so that the instance Discord sends the browser back to need not be the one that began.
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Caller } from '../accounts/authenticate.ts';
import type { Credentials } from '../accounts/credentials.ts';
import { STANDING_MESSAGES, standingProblem } from '../accounts/standing.ts';
import type { Tokens } from '../accounts/tokens.ts';
import { openWebSession } from '../accounts/web-session.ts';
import { actorOf, recordAudit } from '../audit/audit.ts';
import type { Clock } from '../clock.ts';
import { isPostgres, isUniqueViolation } from '../database/dialect.ts';
import type { Database, UserRow } from '../database/schema.ts';
import { forbidden, notFound, totpRequired, unauthorized } from '../http/envelope.ts';
import { tokenHash } from '../http/secrets.ts';
import { type RateLimiter, type RateRule, RULES } from '../ratelimit/limiter.ts';
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
};

/**
 * Why a callback ended without linking or logging in; the page at /discord?problem= says it in words.
 * denied: the player did not allow it on Discord; refused: Discord answered with another error; state: the state is
 * unknown, expired or used (tampered, replayed, or begun on another site); taken: that Discord account is linked to
 * another account here; unavailable: Discord could not be reached or answered garbage; account: the account that
 * asked for the link can no longer take it (banned).
 */
export type CallbackProblem = 'denied' | 'refused' | 'state' | 'taken' | 'unavailable' | 'account';

export interface CallbackQuery {
  code?: string;
  state?: string;
  error?: string;
}

export interface DiscordDeps {
  db: Kysely<Database>;
  clock: Clock;
  /** null: DISCORD_CLIENT_ID and DISCORD_CLIENT_SECRET are not set; only unlinking works. */
  client: DiscordClient | null;
  tokens: Tokens;
  credentials: Credentials;
  limiter: RateLimiter;
  publicUrl: string;
  log: { warn(details: object, message: string): void };
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

  /** Begins linking the caller's account: the address of Discord's consent page. */
  async startLink(caller: Caller, clientAddress: string): Promise<string> {
    return this.begin('link', caller.user.id, clientAddress);
  }

  /** Begins a login with Discord: the address of Discord's consent page. */
  async startLogin(clientAddress: string): Promise<string> {
    return this.begin('login', null, clientAddress);
  }

  private async begin(purpose: 'link' | 'login', userId: number | null, clientAddress: string): Promise<string> {
    const client = this.client;
    await this.deps.limiter.take(DISCORD_STARTS_PER_ADDRESS, clientAddress);
    const { db, clock } = this.deps;
    const { state, codeVerifier } = client.newRequest();
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
        created_at: now,
        expires_at: now + STATE_LIFETIME_MS,
      })
      .execute();
    return client.authorizeUrl(state, codeVerifier);
  }

  /**
   * Discord sent the browser back: links the account, or hands a login its one-time code. Answers where the browser
   * goes next (under PUBLIC_URL); never throws for anything the request or Discord did, and changes nothing unless it
   * all worked.
   */
  async callback(query: CallbackQuery): Promise<string> {
    const client = this.client;
    const { db, clock } = this.deps;
    if (typeof query.state !== 'string' || !STATE_FORMAT.test(query.state)) return this.problem('state');
    // Single use: the delete takes the row, so a second callback with the same state (a replay, or another instance
    // handling the same one at the same moment) finds nothing.
    const request = await db
      .deleteFrom('discord_states')
      .where('state_hash', '=', tokenHash(query.state))
      .returningAll()
      .executeTakeFirst();
    if (!request || request.expires_at <= clock.now()) return this.problem('state');
    if (query.error !== undefined) return this.problem(query.error === 'access_denied' ? 'denied' : 'refused');
    if (typeof query.code !== 'string' || query.code === '' || query.code.length > 512) return this.problem('refused');
    let account: DiscordAccount;
    try {
      account = await client.accountOf(query.code, request.code_verifier);
    } catch (error) {
      if (!(error instanceof DiscordFailure)) throw error;
      this.deps.log.warn({ err: error, cause: error.cause }, 'Discord login failed on Discord’s side');
      return this.problem(error.kind === 'refused' ? 'refused' : 'unavailable');
    }
    if (request.purpose === 'link' && request.user_id !== null) return this.link(request.user_id, account);
    return this.loginCode(account);
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
    return `${this.deps.publicUrl}/home`;
  }

  /** A linked Discord account gets a one-time code for the page; an unlinked one the login page's explanation. */
  private async loginCode(account: DiscordAccount): Promise<string> {
    const { db, clock, publicUrl } = this.deps;
    const user = await db
      .selectFrom('users')
      .select(['id', 'discord_username', 'discord_avatar'])
      .where('dsid', '=', account.id)
      .executeTakeFirst();
    if (!user) return `${publicUrl}/login?discord=not-linked`;
    const code = randomBytes(32).toString('base64url');
    const now = clock.now();
    await db.transaction().execute(async (trx) => {
      await trx.deleteFrom('discord_login_codes').where('expires_at', '<=', now).execute();
      await trx
        .insertInto('discord_login_codes')
        .values({ code_hash: tokenHash(code), user_id: user.id, created_at: now, expires_at: now + LOGIN_CODE_LIFETIME_MS })
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
    return `${publicUrl}${LOGIN_PAGE_PATH}?code=${code}`;
  }

  private problem(problem: CallbackProblem): string {
    return `${this.deps.publicUrl}${LOGIN_PAGE_PATH}?problem=${problem}`;
  }

  /**
   * The page's one-time code for a session, with the rules of a password login: the account's standing and its second
   * factor. The code works once; a refusal only for a missing second factor leaves it usable (the page asks for the
   * code and sends it again), any other refusal uses it up.
   */
  async exchange(code: string, totp: string | undefined, clientAddress: string): Promise<{ jwt: string; url: string }> {
    if (!this.deps.client) throw notFound(NOT_SET_UP);
    const { db, clock, limiter, credentials, tokens, publicUrl } = this.deps;
    await limiter.ensureAllowed(RULES.codeFailuresPerAddress, clientAddress);
    const codeHash = tokenHash(code);
    const found = LOGIN_CODE_FORMAT.test(code)
      ? await db
          .selectFrom('discord_login_codes')
          .innerJoin('users', 'users.id', 'discord_login_codes.user_id')
          .selectAll('users')
          .where('discord_login_codes.code_hash', '=', codeHash)
          .where('discord_login_codes.expires_at', '>', clock.now())
          .executeTakeFirst()
      : undefined;
    if (!found) {
      await limiter.count(RULES.codeFailuresPerAddress, clientAddress);
      throw unauthorized(CODE_UNUSABLE);
    }
    const user: UserRow = found;
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
