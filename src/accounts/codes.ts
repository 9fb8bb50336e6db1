// Single-use, purpose-bound, expiring codes sent by mail (contract sections 2 and 15).
import { createHmac, timingSafeEqual } from 'node:crypto';
import { randomLetters } from '../crypto/random-letters.ts';
import type { CodePurpose, Executor } from '../database/schema.ts';
import type { RateRule } from '../ratelimit/limiter.ts';
import { mailKey } from './rules.ts';

// 10 letters of the code alphabet (crypto/random-letters.ts) carry 50 bits.
const GROUP_LENGTH = 5;
/** Two groups of five letters of the code alphabet, with a space, a dash or nothing between them. */
const CODE_SHAPE = /^([2-9A-HJ-NP-Z]{5})[ -]?([2-9A-HJ-NP-Z]{5})$/;

export const CODE_LIFETIME_MS: Record<CodePurpose, number> = {
  verify_mail: 24 * 3600_000,
  reset_password: 30 * 60_000,
};

/** The code as a mail shows it for typing: two groups of five (a link carries it whole). */
export const groupedCode = (code: string) => `${code.slice(0, GROUP_LENGTH)}-${code.slice(GROUP_LENGTH)}`;

/** The code as issued, from what a player typed or pasted (any case, grouped or whole); undefined when it is no code. */
export function normalizedCode(given: string): string | undefined {
  const match = CODE_SHAPE.exec(given.trim().toUpperCase());
  return match ? `${match[1]}${match[2]}` : undefined;
}

/**
 * The service-wide budget of wrong codes of one purpose, over every client address (contract section 15: whoever
 * controls any number of addresses guesses any live code within a day with a chance below one in a million). A guess
 * wins with probability K / 2^50 when K codes of its purpose are live, so each hour allows floor(1,000,000 / K) wrong
 * guesses, K counted at each check; docs/decisions.md shows why that keeps a day's chance, over both purposes, below
 * 1e-6.
 */
const GUESSES_TIMES_LIVE_CODES_PER_HOUR = 1_000_000;

export function serviceWideCodeRule(liveCodes: number): RateRule {
  return {
    name: 'code-fail-all',
    limit: Math.floor(GUESSES_TIMES_LIVE_CODES_PER_HOUR / Math.max(liveCodes, 1)),
    windowMs: 3600_000,
    message: 'limits.codeFailuresOverall',
  };
}

export interface LiveCode {
  id: number;
  user_id: number;
  password_hash: string | null;
}

/**
 * How long the browser tab that registered may carry on with its continuation (docs/security.md, "Registration in one
 * tab"): it lets that tab confirm without typing the password again, or have the mail sent again.
 */
export const CONTINUATION_LIFETIME_MS = 60 * 60_000;

/** The code a continuation was made for, when the continuation is genuine and not past its end. */
export interface ContinuationClaim {
  codeId: number;
  expiresAt: number;
}

export class MailCodes {
  constructor(private readonly secret: string) {}

  /**
   * Creates a code for `purpose` and returns it in clear once. A code without a password replaces the unused ones of
   * its purpose; a registration code carrying its request's password (hash) stands beside the earlier ones, so that
   * registering again neither cancels nor takes over the code of an earlier request (contract section 15).
   */
  async issue(
    db: Executor,
    userId: number,
    purpose: CodePurpose,
    mail: string,
    nowMs: number,
    passwordHash: string | null = null,
  ): Promise<string> {
    return (await this.issueRow(db, userId, purpose, mail, nowMs, passwordHash)).code;
  }

  /** issue(), answering the new row's id too (a continuation names it). */
  async issueRow(
    db: Executor,
    userId: number,
    purpose: CodePurpose,
    mail: string,
    nowMs: number,
    passwordHash: string | null = null,
  ): Promise<{ code: string; id: number }> {
    if (passwordHash === null) await dropOutstandingCodes(db, userId, purpose);
    const code = randomLetters(2 * GROUP_LENGTH);
    const { id } = await db
      .insertInto('mail_codes')
      .values({
        user_id: userId,
        purpose,
        code_hash: this.digest(code),
        mail,
        password_hash: passwordHash,
        created_at: nowMs,
        expires_at: nowMs + CODE_LIFETIME_MS[purpose],
        used_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { code, id };
  }

  /**
   * A continuation for the code `codeId`: handed to the request that had the code mailed (and so knew the password,
   * or proved it), it lets that browser tab confirm the code and be logged in at once, or have the mail sent again.
   * Alone it does nothing: confirming still needs the mailed code. `<code id>.<end ms>.<HMAC>` under a key of its own.
   */
  continuation(codeId: number, nowMs: number): string {
    const expiresAt = nowMs + CONTINUATION_LIFETIME_MS;
    return `${codeId}.${expiresAt}.${this.continuationMac(codeId, expiresAt)}`;
  }

  /** The code a continuation names, when it is one this service made and it has not ended; undefined otherwise. */
  continuationClaim(token: string | undefined, nowMs: number): ContinuationClaim | undefined {
    const match = /^(\d{1,15})\.(\d{1,15})\.([A-Za-z0-9_-]{43})$/.exec(token?.trim() ?? '');
    if (!match) return undefined;
    const codeId = Number(match[1]);
    const expiresAt = Number(match[2]);
    const expected = Buffer.from(this.continuationMac(codeId, expiresAt));
    const given = Buffer.from(match[3]!);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    return expiresAt > nowMs ? { codeId, expiresAt } : undefined;
  }

  private continuationMac(codeId: number, expiresAt: number): string {
    return createHmac('sha256', this.secret).update(`registration-continuation\0${codeId}\0${expiresAt}`).digest('base64url');
  }

  /**
   * The live code row for `code` (normalized), or undefined when it is unknown, of another purpose, used, expired, or
   * sent to an address the account no longer has (a code proves the address it was sent to, and nothing after a change).
   */
  async find(db: Executor, code: string, purpose: CodePurpose, nowMs: number): Promise<LiveCode | undefined> {
    const row = await db
      .selectFrom('mail_codes')
      .innerJoin('users', 'users.id', 'mail_codes.user_id')
      .select(['mail_codes.id', 'mail_codes.user_id', 'mail_codes.mail', 'mail_codes.password_hash', 'users.mail_key'])
      .where('mail_codes.code_hash', '=', this.digest(code))
      .where('mail_codes.purpose', '=', purpose)
      .where('mail_codes.used_at', 'is', null)
      .where('mail_codes.expires_at', '>', nowMs)
      .executeTakeFirst();
    if (!row || row.mail_key !== mailKey(row.mail)) return undefined;
    return { id: row.id, user_id: row.user_id, password_hash: row.password_hash };
  }

  /** Marks the code used; false when another request used it first. */
  async use(db: Executor, codeId: number, nowMs: number): Promise<boolean> {
    const result = await db
      .updateTable('mail_codes')
      .set({ used_at: nowMs })
      .where('id', '=', codeId)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    return result.numUpdatedRows === 1n;
  }

  /** How many codes of `purpose` could be guessed right now (the K of serviceWideCodeRule). */
  async liveCount(db: Executor, purpose: CodePurpose, nowMs: number): Promise<number> {
    const { live } = await db
      .selectFrom('mail_codes')
      .select((eb) => eb.fn.countAll<number>().as('live'))
      .where('purpose', '=', purpose)
      .where('used_at', 'is', null)
      .where('expires_at', '>', nowMs)
      .executeTakeFirstOrThrow();
    return Number(live);
  }

  // Looked up by keyed hash: the lookup's timing can reveal nothing about the code itself.
  private digest(code: string) {
    return createHmac('sha256', this.secret).update(code).digest('hex');
  }
}

/**
 * Deletes the account's unused codes (of one purpose, or all): a password change or reset and a mail change end
 * every code mailed before, so that a reset code sent to a former address, or a registration code carrying an older
 * password, changes nothing any more.
 */
export async function dropOutstandingCodes(db: Executor, userId: number, purpose?: CodePurpose): Promise<void> {
  let codes = db.deleteFrom('mail_codes').where('user_id', '=', userId).where('used_at', 'is', null);
  if (purpose !== undefined) codes = codes.where('purpose', '=', purpose);
  await codes.execute();
}
