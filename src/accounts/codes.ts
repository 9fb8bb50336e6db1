// Single-use, purpose-bound, expiring codes sent by mail (contract sections 2, 15 and 15b): each mail carries a short
// code to type and a link with a long token; both are stored as keyed hashes.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { randomLetters } from '../crypto/random-letters.ts';
import type { CodePurpose, Executor } from '../database/schema.ts';
import { mailKey } from './rules.ts';

// 10 letters of the code alphabet (crypto/random-letters.ts) carry 50 bits.
const GROUP_LENGTH = 5;
/** Two groups of five letters of the code alphabet, with a space, a dash or nothing between them. */
const CODE_SHAPE = /^([2-9A-HJ-NP-Z]{5})[ -]?([2-9A-HJ-NP-Z]{5})$/;
/** The link's token: 26 letters of the code alphabet, 130 bits (contract section 15b asks for 128). */
const TOKEN_LENGTH = 26;
const TOKEN_SHAPE = /^[2-9A-HJ-NP-Z]{26}$/;

export const CODE_LIFETIME_MS: Record<CodePurpose, number> = {
  verify_mail: 24 * 3600_000,
  reset_password: 30 * 60_000,
};

/** The code as a mail shows it for typing: two groups of five. */
export const groupedCode = (code: string) => `${code.slice(0, GROUP_LENGTH)}-${code.slice(GROUP_LENGTH)}`;

/**
 * What a player typed, pasted or followed: the short code typed by hand (accepted only with its continuation or its
 * mail address, and limited per account), or the link's token (which confirms by itself: contract section 15b).
 */
export type GivenCode = { kind: 'typed'; code: string } | { kind: 'token'; token: string };

/** A typed code as issued (any case, grouped or whole) or a link's token (any case); undefined when it is neither. */
export function readCode(given: string): GivenCode | undefined {
  const upper = given.trim().toUpperCase();
  if (TOKEN_SHAPE.test(upper)) return { kind: 'token', token: upper };
  const match = CODE_SHAPE.exec(upper);
  return match ? { kind: 'typed', code: `${match[1]}${match[2]}` } : undefined;
}

export interface LiveCode {
  id: number;
  user_id: number;
  /** The address the code was mailed to (still the account's: find() checks). */
  mail: string;
  password_hash: string | null;
}

/** A new code: the short code for typing, the token for the link, and the row's id (a continuation names it). */
export interface IssuedCode {
  code: string;
  token: string;
  id: number;
}

/**
 * How long the browser that registered may carry on with its continuation (docs/security.md, "Registration in one
 * browser"): it lets that browser confirm without typing the password again, have the mail sent again, and notice a
 * confirmation made elsewhere.
 */
export const CONTINUATION_LIFETIME_MS = 60 * 60_000;

/** The code a continuation was made for, and its account, when the continuation is genuine and not past its end. */
export interface ContinuationClaim {
  codeId: number;
  userId: number;
  expiresAt: number;
}

export class MailCodes {
  constructor(private readonly secret: string) {}

  /**
   * Creates a code for `purpose` and returns it in clear once. A registration's code (`registration`, carrying the
   * password hash of the first registration of the address, or none: contract section 15b) stands beside the earlier
   * ones, so that registering again cancels nobody's code; any other code replaces the unused ones of its purpose.
   */
  async issue(
    db: Executor,
    userId: number,
    purpose: CodePurpose,
    mail: string,
    nowMs: number,
    registration?: { passwordHash: string | null },
  ): Promise<IssuedCode> {
    if (registration === undefined) await dropOutstandingCodes(db, userId, purpose);
    const code = randomLetters(2 * GROUP_LENGTH);
    const token = randomLetters(TOKEN_LENGTH);
    const { id } = await db
      .insertInto('mail_codes')
      .values({
        user_id: userId,
        purpose,
        code_hash: this.digest({ kind: 'typed', code }),
        token_hash: this.digest({ kind: 'token', token }),
        mail,
        password_hash: registration?.passwordHash ?? null,
        created_at: nowMs,
        expires_at: nowMs + CODE_LIFETIME_MS[purpose],
        used_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { code, token, id };
  }

  /**
   * A continuation for the code `codeId` of account `userId`: handed to the request that had the code mailed (and so
   * knew the password, or proved it), it lets that browser confirm the code and be logged in at once, have the mail
   * sent again, and ask whether the account was confirmed elsewhere. Alone it confirms nothing.
   * `<code id>.<user id>.<end ms>.<HMAC>` under a key of its own.
   */
  continuation(codeId: number, userId: number, nowMs: number): string {
    const expiresAt = nowMs + CONTINUATION_LIFETIME_MS;
    return `${codeId}.${userId}.${expiresAt}.${this.continuationMac(codeId, userId, expiresAt)}`;
  }

  /** What a continuation names, when it is one this service made and it has not ended; undefined otherwise. */
  continuationClaim(token: string | undefined, nowMs: number): ContinuationClaim | undefined {
    const match = /^(\d{1,15})\.(\d{1,15})\.(\d{1,15})\.([A-Za-z0-9_-]{43})$/.exec(token?.trim() ?? '');
    if (!match) return undefined;
    const [codeId, userId, expiresAt] = [Number(match[1]), Number(match[2]), Number(match[3])];
    const expected = Buffer.from(this.continuationMac(codeId, userId, expiresAt));
    const given = Buffer.from(match[4]!);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    return expiresAt > nowMs ? { codeId, userId, expiresAt } : undefined;
  }

  private continuationMac(codeId: number, userId: number, expiresAt: number): string {
    return createHmac('sha256', this.secret).update(`registration-continuation\0${codeId}\0${userId}\0${expiresAt}`).digest('base64url');
  }

  /**
   * The live code row for a typed code or a token, or undefined when it is unknown, of another purpose, used,
   * expired, or sent to an address the account no longer has (a code proves the address it was sent to, and nothing
   * after a change). Whether a typed code came with what binds it is the caller's to check.
   */
  async find(db: Executor, given: GivenCode, purpose: CodePurpose, nowMs: number): Promise<LiveCode | undefined> {
    const row = await db
      .selectFrom('mail_codes')
      .innerJoin('users', 'users.id', 'mail_codes.user_id')
      .select(['mail_codes.id', 'mail_codes.user_id', 'mail_codes.mail', 'mail_codes.password_hash', 'users.mail_key'])
      .where(given.kind === 'typed' ? 'mail_codes.code_hash' : 'mail_codes.token_hash', '=', this.digest(given))
      .where('mail_codes.purpose', '=', purpose)
      .where('mail_codes.used_at', 'is', null)
      .where('mail_codes.expires_at', '>', nowMs)
      .executeTakeFirst();
    if (!row || row.mail_key !== mailKey(row.mail)) return undefined;
    return { id: row.id, user_id: row.user_id, mail: row.mail, password_hash: row.password_hash };
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

  // Looked up by keyed hash: the lookup's timing can reveal nothing about the code itself. Typed codes keep the
  // digest they always had; a token's is labelled apart.
  private digest(given: GivenCode) {
    const hmac = createHmac('sha256', this.secret);
    return (given.kind === 'typed' ? hmac.update(given.code) : hmac.update(`link-token\0${given.token}`)).digest('hex');
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
