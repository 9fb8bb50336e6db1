// What every login through another site shares (Discord, contract section 11; any OpenID Connect provider, section
// 26): the authorization request's state and a login's one-time code, kept in the database (hashed, used up by a
// conditional delete) so that the instance the browser comes back to need not be the one that began, and both bound to
// the browser that began (contract section 15): it holds a random nonce (the routes keep it in a cookie, see
// browser-cookie.ts) whose hash goes with the state and then with the code, so that a callback address or a code
// carried to another browser (a login forced on a victim, or the victim's identity linked to an attacker's account)
// does nothing. The exchange of the code applies the rules of a password login (second factor, standing).
import { randomBytes } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { Credentials } from '../accounts/credentials.ts';
import { standingProblem, accountPerms, standingRefusal } from '../accounts/standing.ts';
import type { Tokens } from '../accounts/tokens.ts';
import { openWebSession } from '../accounts/web-session.ts';
import type { Clock } from '../clock.ts';
import { isPostgres, isUniqueViolation } from '../database/dialect.ts';
import type { Database, Executor, UserRow } from '../database/schema.ts';
import { ApiError, totpRequired, unauthorized } from '../http/envelope.ts';
import { tokenHash } from '../http/secrets.ts';
import type { RateLimiter, RateRule } from '../ratelimit/limiter.ts';

/** How long a player has on the other site's page before the request's state is refused (contract sections 11, 26). */
export const STATE_LIFETIME_MS = 10 * 60_000;
/** How long the page has to exchange a login's one-time code (contract section 11). */
export const LOGIN_CODE_LIFETIME_MS = 2 * 60_000;

const STATE_FORMAT = /^[A-Za-z0-9_-]{16,128}$/;
const LOGIN_CODE_FORMAT = /^[A-Za-z0-9_-]{43}$/;

/** A flow begun: the other site's page, and the nonce the browser keeps (in a cookie) to finish it; null: not begun (url says why). */
export interface Begun {
  url: string;
  browserNonce: string | null;
}

/**
 * Where the browser goes after the callback, and whether its nonce is still needed: a login that got its one-time code
 * exchanges it from the same browser; a callback refused for another browser leaves that browser's own flow alone.
 */
export interface CallbackOutcome {
  location: string;
  keepNonce: boolean;
}

/** A callback that ended this browser's flow (taken, whatever came next): the browser forgets its nonce. */
export const ended = (location: string): CallbackOutcome => ({ location, keepNonce: false });

/**
 * The account a link goes to, locked for the rest of the transaction (PostgreSQL; SQLite writes one at a time), or null
 * when it can take no link now (gone, banned, unfinished, unverified).
 */
export async function linkableUser(trx: Transaction<Database>, userId: number, nowMs: number): Promise<UserRow | null> {
  let locked = trx.selectFrom('users').selectAll().where('id', '=', userId);
  if (isPostgres(trx)) locked = locked.forUpdate();
  const user = await locked.executeTakeFirst();
  return !user || standingProblem({ ...user, level: accountPerms(user, nowMs) }) ? null : user;
}

/** One kind of login through another site: its own rate budgets and its own words. */
export interface FlowKind {
  /** Authorization requests begun per client address: each one writes a row that lives 10 minutes. */
  starts: RateRule;
  /** Wrong login codes per client address (contract section 15). */
  codeFailures: RateRule;
  messages: { codeUnusable: string; secondFactorNeeded: string; totpWrong: string };
  /** Whether a request or code of `provider` (the column's value) is this kind's. */
  owns(provider: string): boolean;
}

export interface FlowDeps {
  db: Kysely<Database>;
  clock: Clock;
  tokens: Tokens;
  credentials: Credentials;
  limiter: RateLimiter;
  publicUrl: string;
  /** Wakes the mail worker after a transaction that queued mail (a link's security mail) has committed. */
  mailQueued: () => void;
}

/** What the other site needs to be asked: the state, the PKCE verifier, and (OpenID Connect) the nonce. */
export interface RequestSecrets {
  state: string;
  codeVerifier: string;
  nonce?: string;
}

/** An authorization request taken back at the callback. */
export interface TakenRequest {
  provider: string;
  purpose: 'link' | 'login' | 'register';
  userId: number | null;
  codeVerifier: string;
  nonce: string | null;
  browserHash: string;
}

/**
 * What a callback found: `untouched` (nothing taken: a malformed or unknown state, or another browser's: that browser's
 * own flow, if any, stays as it was), `expired` (taken but too old), or the request, taken (single use).
 */
export type Taking = { kind: 'untouched'; problem: 'state' | 'browser' } | { kind: 'expired' } | { kind: 'taken'; request: TakenRequest };

export class LoginFlows {
  constructor(
    private readonly deps: FlowDeps,
    private readonly kind: FlowKind,
  ) {}

  /** Keeps a new request of `provider`; answers the nonce the browser keeps (in a cookie) to finish it. */
  async begin(provider: string, purpose: TakenRequest['purpose'], userId: number | null, secrets: RequestSecrets, clientAddress: string) {
    await this.deps.limiter.take(this.kind.starts, clientAddress);
    const { db, clock } = this.deps;
    const browserNonce = randomBytes(32).toString('base64url');
    const now = clock.now();
    // Requests nobody finished go with the next one begun, so the table holds at most ten minutes of them.
    await db.deleteFrom('discord_states').where('expires_at', '<=', now).execute();
    await db
      .insertInto('discord_states')
      .values({
        state_hash: tokenHash(secrets.state),
        provider,
        purpose,
        user_id: userId,
        code_verifier: secrets.codeVerifier,
        nonce: secrets.nonce ?? null,
        browser_hash: tokenHash(browserNonce),
        created_at: now,
        expires_at: now + STATE_LIFETIME_MS,
      })
      .execute();
    return browserNonce;
  }

  /**
   * Takes the request of `provider` named by `state`, in the browser that began it (`browserNonce`). Single use: the
   * delete takes the row, so a second callback with the same state (a replay, or another instance handling the same
   * one at the same moment) finds nothing.
   */
  /**
   * take(), answering where the browser goes when nothing usable was taken (`problemPage` of `state` or `browser`):
   * a flow left untouched keeps the browser's nonce, an expired one ends it.
   */
  async takeOrEnd(
    provider: string,
    state: unknown,
    browserNonce: string | undefined,
    problemPage: (problem: 'state' | 'browser') => string,
  ): Promise<{ request: TakenRequest; outcome?: undefined } | { request?: undefined; outcome: CallbackOutcome }> {
    const taking = await this.take(provider, state, browserNonce);
    if (taking.kind === 'untouched') return { outcome: { location: problemPage(taking.problem), keepNonce: true } };
    if (taking.kind === 'expired') return { outcome: ended(problemPage('state')) };
    return { request: taking.request };
  }

  async take(provider: string, state: unknown, browserNonce: string | undefined): Promise<Taking> {
    if (typeof state !== 'string' || !STATE_FORMAT.test(state)) return { kind: 'untouched', problem: 'state' };
    if (browserNonce === undefined) return { kind: 'untouched', problem: 'browser' };
    const { db, clock } = this.deps;
    const row = await db
      .deleteFrom('discord_states')
      .where('state_hash', '=', tokenHash(state))
      .where('browser_hash', '=', tokenHash(browserNonce))
      .where('provider', '=', provider)
      .returningAll()
      .executeTakeFirst();
    if (!row) return { kind: 'untouched', problem: 'state' };
    if (row.expires_at <= clock.now()) return { kind: 'expired' };
    return {
      kind: 'taken',
      request: {
        provider: row.provider,
        purpose: row.purpose,
        userId: row.user_id,
        codeVerifier: row.code_verifier,
        nonce: row.nonce,
        browserHash: row.browser_hash,
      },
    };
  }

  /**
   * Links an identity at the other site to an account: `write` does it in a transaction (locking the account with
   * linkableUser) and answers null, or the problem that stopped it. Answers where the browser goes: the profile, or
   * `problemPage` of the problem; two accounts linking the same identity at the same moment: the unique index keeps one,
   * the other hears `taken`. The player's security mail, queued by `write`, goes once the transaction has committed.
   */
  async link<Problem extends string>(
    write: (trx: Transaction<Database>) => Promise<Problem | null>,
    problemPage: (problem: Problem | 'taken') => string,
  ): Promise<string> {
    try {
      const problem = await this.deps.db.transaction().execute(write);
      if (problem) return problemPage(problem);
    } catch (error) {
      if (isUniqueViolation(error)) return problemPage('taken');
      throw error;
    }
    this.deps.mailQueued();
    return `${this.deps.publicUrl}/home`;
  }

  /** A login's one-time code for `userId`, bound to the browser that began (`browserHash`), written with `trx`. */
  async issueCode(trx: Executor, provider: string, userId: number, browserHash: string): Promise<string> {
    const code = randomBytes(32).toString('base64url');
    const now = this.deps.clock.now();
    await trx.deleteFrom('discord_login_codes').where('expires_at', '<=', now).execute();
    await trx
      .insertInto('discord_login_codes')
      .values({
        code_hash: tokenHash(code),
        provider,
        user_id: userId,
        browser_hash: browserHash,
        created_at: now,
        expires_at: now + LOGIN_CODE_LIFETIME_MS,
      })
      .execute();
    return code;
  }

  /**
   * The page's one-time code for a session, in the browser that began the login (`browserNonce`), with the rules of a
   * password login: the account's standing and its second factor. The code works once; a refusal only for a missing
   * second factor or for another browser leaves it usable (the page asks for the code and sends it again; the right
   * browser still may), any other refusal uses it up. Answers the session, the account and whose login it was.
   */
  async exchange(
    code: string,
    totp: string | undefined,
    browserNonce: string | undefined,
    clientAddress: string,
  ): Promise<{ jwt: string; url: string; user: UserRow; provider: string }> {
    const { db, clock, limiter, credentials, tokens, publicUrl } = this.deps;
    const { codeFailures, messages } = this.kind;
    // A browser without a nonce began no login: nothing is checked, so nothing counts.
    if (browserNonce === undefined) throw unauthorized(messages.codeUnusable);
    // Counted before the check, so that requests arriving together check no more codes than the limit allows.
    await limiter.take(codeFailures, clientAddress);
    const codeHash = tokenHash(code);
    const found = LOGIN_CODE_FORMAT.test(code)
      ? await db
          .selectFrom('discord_login_codes')
          .innerJoin('users', 'users.id', 'discord_login_codes.user_id')
          .selectAll('users')
          .select(['discord_login_codes.browser_hash', 'discord_login_codes.provider'])
          .where('discord_login_codes.code_hash', '=', codeHash)
          .where('discord_login_codes.expires_at', '>', clock.now())
          .executeTakeFirst()
      : undefined;
    if (!found || !this.kind.owns(found.provider)) throw unauthorized(messages.codeUnusable);
    await limiter.refund(codeFailures, clientAddress);
    // The right code in another browser (a login forced on someone): refused, neither counted nor used up.
    const { browser_hash: browserHash, provider, ...user } = found;
    if (browserHash !== tokenHash(browserNonce)) throw unauthorized(messages.codeUnusable);
    const useUp = async () =>
      (await db.deleteFrom('discord_login_codes').where('code_hash', '=', codeHash).executeTakeFirst()).numDeletedRows === 1n;
    // In the password login's order: the second factor, then the account's standing (an unfinished registration goes
    // on to step 3, as from the web login).
    const second = await credentials.checkSecondFactor(user, totp, clientAddress);
    if (second.refusal === 'code-required') throw totpRequired(messages.secondFactorNeeded);
    if (second.refusal) {
      await useUp();
      throw unauthorized(messages.totpWrong);
    }
    const problem = standingProblem({ ...user, level: accountPerms(user, clock.now()) }, ['unfinished']);
    if (problem) {
      await useUp();
      throw new ApiError(403, await standingRefusal(db, user, problem, clock.now()));
    }
    // Two exchanges of one code at the same moment: one delete takes the row, the other is refused.
    if (!(await useUp())) throw unauthorized(messages.codeUnusable);
    return { ...(await openWebSession(db, tokens, clock, publicUrl, user)), user, provider };
  }
}
