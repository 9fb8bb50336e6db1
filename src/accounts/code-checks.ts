// Checking a mailed code (contract sections 15 and 15b): the link's token alone, or the typed code with what binds it,
// counted before the check on the client address and on the account, never service-wide.
import type { Kysely, Transaction } from 'kysely';
import type { Clock } from '../clock.ts';
import type { CodePurpose, Database } from '../database/schema.ts';
import { badRequest } from '../http/envelope.ts';
import { RULES, type Limit, type RateLimiter } from '../ratelimit/limiter.ts';
import { readCode, type ContinuationClaim, type LiveCode, type MailCodes } from './codes.ts';
import { mailKey } from './rules.ts';

const WRONG_CODE = 'accounts.wrongCode';
const MALFORMED_CODE = 'accounts.codeMalformed';

/**
 * What a code typed by hand comes with (contract section 15b): the continuation of the browser that had it mailed,
 * or the mail address it was sent to. A link's token needs neither.
 */
export interface CodeBinding {
  continuation?: string;
  mail?: string;
}

/** A live code found for a request, and whether the request's continuation proved the password the code carries. */
export interface FoundCode extends LiveCode {
  /** The continuation names a code carrying the very password hash this one carries: that browser typed (or proved)
   * that password, so it may keep it and be logged in (docs/security.md, "Registration in one browser"). */
  passwordKnown: boolean;
  /** A continuation came with the request and is genuine (whichever code it names). */
  continued: boolean;
}

export class CodeChecks {
  constructor(private readonly deps: { db: Kysely<Database>; clock: Clock; codes: MailCodes; limiter: RateLimiter }) {}

  /**
   * Checks a mail code within the limits (contract sections 15 and 15b), counted before the check in one step of the
   * limiter's store and given back when the code was right, so that requests arriving together check no more codes
   * than the limits allow. A link's token confirms by itself and counts on the client address only. A typed code is
   * looked for only with what binds it (`binding`: its continuation, or the mail address it was sent to), and counts
   * on the address and on each account that binding names (10 in 15 minutes per purpose); no limit is service-wide.
   * `use` runs in the transaction that found the code and answers undefined when the code turns out spent.
   */
  async check<T>(
    given: string,
    purpose: CodePurpose,
    clientAddress: string,
    binding: CodeBinding,
    use: (trx: Transaction<Database>, found: FoundCode, now: number) => Promise<T | undefined>,
  ): Promise<T> {
    const { db, clock, codes, limiter } = this.deps;
    const read = readCode(given);
    if (read === undefined) {
      // Of the wrong shape, it cannot match any code: it costs the address only.
      await limiter.take(RULES.codeFailuresPerAddress, clientAddress);
      throw badRequest(MALFORMED_CODE, { field: 'code' });
    }
    const claim = codes.continuationClaim(binding.continuation, clock.now());
    const mail = binding.mail?.trim() || undefined;
    const limits: Limit[] = [[RULES.codeFailuresPerAddress, clientAddress]];
    if (read.kind === 'typed') {
      if (claim === undefined && mail === undefined) throw badRequest('accounts.codeNeedsMail', { field: 'mail' });
      for (const account of await this.accountsNamed(claim, mail)) limits.push([RULES.codeFailuresPerAccount, `${purpose}:${account}`]);
    }
    // A typed code is taken only when its continuation names it or it went to the given address.
    const bound = (found: LiveCode) =>
      read.kind === 'token' || found.id === claim?.codeId || (mail !== undefined && mailKey(found.mail) === mailKey(mail));
    await limiter.takeAll(limits);
    const giveBack = () => Promise.all(limits.map(([rule, subject]) => limiter.refund(rule, subject)));
    const result = await db
      .transaction()
      .execute(async (trx) => {
        const now = clock.now();
        const found = await codes.find(trx, read, purpose, now);
        if (!found || !bound(found)) return undefined;
        return use(trx, { ...found, ...(await this.passwordProof(trx, claim, found)) }, now);
      })
      .catch(async (refusal: unknown) => {
        // The code was right, something else was refused (the new password's rules): no wrong guess to count.
        await giveBack();
        throw refusal;
      });
    if (result === undefined) throw badRequest(WRONG_CODE, { field: 'code' });
    await giveBack();
    return result;
  }

  /** The accounts a typed code's binding names: the continuation's, and the one that has the mail address. */
  private async accountsNamed(claim: ContinuationClaim | undefined, mail: string | undefined): Promise<Set<number>> {
    const accounts = new Set<number>();
    if (claim) accounts.add(claim.userId);
    if (mail !== undefined) {
      const user = await this.deps.db.selectFrom('users').select('id').where('mail_key', '=', mailKey(mail)).executeTakeFirst();
      if (user) accounts.add(user.id);
    }
    return accounts;
  }

  /** Whether the request came with a genuine continuation, and whether the code it names carries `found`'s password. */
  private async passwordProof(trx: Transaction<Database>, claim: ContinuationClaim | undefined, found: LiveCode) {
    if (!claim) return { continued: false, passwordKnown: false };
    if (found.password_hash === null) return { continued: true, passwordKnown: false };
    const named =
      claim.codeId === found.id
        ? found
        : await trx
            .selectFrom('mail_codes')
            .select('password_hash')
            .where('id', '=', claim.codeId)
            .where('user_id', '=', found.user_id)
            .executeTakeFirst();
    return { continued: true, passwordKnown: named?.password_hash === found.password_hash };
  }
}
