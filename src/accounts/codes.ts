// Single-use, purpose-bound, expiring codes sent by mail (contract section 2).
import { createHmac, randomInt } from 'node:crypto';
import type { CodePurpose, Executor } from '../database/schema.ts';

// 32 letters without look-alikes (no 0/O, 1/I): 8 of them carry 40 bits.
const ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';
const CODE_LENGTH = 8;

export const CODE_LIFETIME_MS: Record<CodePurpose, number> = {
  verify_mail: 24 * 3600_000,
  reset_password: 30 * 60_000,
};

export class MailCodes {
  constructor(private readonly secret: string) {}

  /** Creates a code for `purpose`, replacing any unused one of the same purpose, and returns it in clear once. */
  async issue(db: Executor, userId: number, purpose: CodePurpose, mail: string, nowMs: number): Promise<string> {
    await db.deleteFrom('mail_codes').where('user_id', '=', userId).where('purpose', '=', purpose).where('used_at', 'is', null).execute();
    const code = Array.from({ length: CODE_LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
    await db
      .insertInto('mail_codes')
      .values({
        user_id: userId,
        purpose,
        code_hash: this.digest(code),
        mail,
        created_at: nowMs,
        expires_at: nowMs + CODE_LIFETIME_MS[purpose],
        used_at: null,
      })
      .execute();
    return code;
  }

  /** The live code row for `code`, or undefined when it is unknown, of another purpose, used or expired. */
  async find(db: Executor, code: string, purpose: CodePurpose, nowMs: number) {
    const normalized = code.trim().toUpperCase().replace(/[\s-]/g, '');
    if (normalized.length !== CODE_LENGTH) return undefined;
    return db
      .selectFrom('mail_codes')
      .select(['id', 'user_id', 'mail'])
      .where('code_hash', '=', this.digest(normalized))
      .where('purpose', '=', purpose)
      .where('used_at', 'is', null)
      .where('expires_at', '>', nowMs)
      .executeTakeFirst();
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

  // Looked up by keyed hash: the lookup's timing can reveal nothing about the code itself.
  private digest(code: string) {
    return createHmac('sha256', this.secret).update(code).digest('hex');
  }
}
