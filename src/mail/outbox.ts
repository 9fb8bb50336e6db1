// Mail is written to the outbox table in the same transaction as the change that causes it, and sent later by
// the worker: a request never waits on SMTP, and a dead SMTP server delays mail but never loses it.
import type { FastifyBaseLogger } from 'fastify';
import type { ExpressionBuilder, Kysely } from 'kysely';
import { recordAudit, SYSTEM } from '../audit/audit.ts';
import type { Clock } from '../clock.ts';
import { isPostgres } from '../database/dialect.ts';
import type { Database, Executor } from '../database/schema.ts';
import { isLanguage, DEFAULT_LANGUAGE, type Language } from '../i18n/languages.ts';
import { securityEventMessage, type MailContent, type SecurityEvent } from './templates.ts';
import { BackgroundLoop } from '../background-loop.ts';
import { PermanentMailError, type MailTransport } from './transport.ts';

/**
 * What a mail keeps of its body once it is sent or given up on: nothing. Bodies hold live codes and links, readable to
 * anyone who reads the table; the recipient, subject, times and error stay for the dashboard, metrics and audit.
 */
const NO_BODY = { text_body: '', html_body: '' } as const;

export async function queueMail(
  db: Executor,
  nowMs: number,
  recipients: string | string[],
  content: MailContent,
  broadcastId: number | null = null,
): Promise<void> {
  const rows = [recipients].flat().map((recipient) => ({
    recipient,
    subject: content.subject,
    text_body: content.text,
    html_body: content.html,
    created_at: nowMs,
    attempts: 0,
    next_attempt_at: nowMs,
    broadcast_id: broadcastId,
  }));
  if (rows.length > 0) await db.insertInto('mail_outbox').values(rows).execute();
}

/**
 * The language a user's mails are written in: the one stored with the account (contract section 14), whoever caused
 * the mail (a moderator, an administrator, the operator). English for an unknown value.
 */
export async function languageOfUser(db: Executor, userId: number): Promise<Language> {
  const row = await db.selectFrom('users').select('language').where('id', '=', userId).executeTakeFirst();
  return isLanguage(row?.language) ? row.language : DEFAULT_LANGUAGE;
}

/**
 * Tells `user`, in their language, what happened to their account's ways in (a passkey or an app password made,
 * two-factor login turned on or off, a password reset, a launcher let in): queued in the transaction of the change.
 * The caller wakes the mail worker once it has committed.
 */
export async function queueSecurityMail(
  db: Executor,
  nowMs: number,
  user: { id: number; mail: string },
  event: SecurityEvent,
  publicUrl: string,
): Promise<void> {
  const language = await languageOfUser(db, user.id);
  await queueMail(db, nowMs, user.mail, securityEventMessage(language, event, `${publicUrl}/home`));
}

/** Mails not sent yet and mails given up on; both are in the partial index of unsent rows. */
export async function outboxCounts(db: Kysely<Database>): Promise<{ pending: number; failed: number }> {
  const { unsent, failed } = await db
    .selectFrom('mail_outbox')
    .select((eb) => [eb.fn.countAll<number>().as('unsent'), eb.fn.count<number>('failed_at').as('failed')])
    .where('sent_at', 'is', null)
    .executeTakeFirstOrThrow();
  return { pending: Number(unsent) - Number(failed), failed: Number(failed) };
}

export interface MailWorkerOptions {
  /** How often the worker looks for due mail when nobody woke it. */
  pollIntervalMs: number;
  /** First retry delay; doubles with every failed attempt up to maxRetryDelayMs. */
  retryBaseMs: number;
  maxRetryDelayMs: number;
  /**
   * How long a claimed row stays ours; a crashed worker's row is taken up again after it. Longer than one send
   * can take (the SMTP timeouts of transport.ts end a send within a minute), so no other worker sends it twice.
   */
  leaseMs: number;
  /**
   * How long a stop waits for the send in progress before cutting it off; the cut-off mail goes back to the queue.
   * Short, so that a stalled SMTP server cannot hold a stopping service until a container manager kills it.
   */
  stopGraceMs: number;
}

export const DEFAULT_MAIL_WORKER_OPTIONS: MailWorkerOptions = {
  pollIntervalMs: 5_000,
  retryBaseMs: 5_000,
  maxRetryDelayMs: 10 * 60_000,
  leaseMs: 2 * 60_000,
  stopGraceMs: 2_000,
};

export class MailWorker {
  private readonly loop: BackgroundLoop;
  private stopping = false;
  /** Set when a stop cut off the send in progress: its failure is not the mail's fault. */
  private cutOff = false;
  /** Send attempts of this process that failed, retries included (for the metrics). */
  failedAttempts = 0;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly transport: MailTransport,
    private readonly clock: Clock,
    private readonly log: FastifyBaseLogger,
    private readonly options: MailWorkerOptions,
  ) {
    this.loop = new BackgroundLoop('mail worker', () => this.drain(), options.pollIntervalMs, log);
  }

  start() {
    this.loop.start();
  }

  /** Asks for a pass now (after a request queued mail) instead of at the next poll. */
  wake() {
    this.loop.wake();
  }

  /** Starts no further send, waits up to stopGraceMs for the one in progress, then cuts it off. */
  async stop() {
    this.stopping = true;
    const passEnded = this.loop.stop();
    const cutOffTimer = setTimeout(() => {
      this.cutOff = true;
      this.transport.close();
    }, this.options.stopGraceMs);
    await passEnded;
    clearTimeout(cutOffTimer);
    this.transport.close();
  }

  /** Sends due mail until none is left. */
  private async drain() {
    while (!this.stopping) {
      const claimed = await this.claimNext();
      if (!claimed) return;
      await this.deliver(claimed);
    }
  }

  /**
   * Claims the oldest due row for one lease in a single statement. On PostgreSQL the row is picked with
   * FOR UPDATE SKIP LOCKED: workers of other instances pass over it instead of waiting, and the lease then keeps
   * it ours until the mail is sent. (SQLite runs one write at a time, so the statement alone is enough.)
   * One row per claim: a lease must only cover the one send it guards, never a queue of slow sends behind it.
   */
  private async claimNext() {
    const now = this.clock.now();
    const claimable = (eb: ExpressionBuilder<Database, 'mail_outbox'>) =>
      eb.and([
        eb('sent_at', 'is', null),
        eb('failed_at', 'is', null),
        eb('next_attempt_at', '<=', now),
        eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', now)]),
      ]);
    let oldest = this.db.selectFrom('mail_outbox').select('id').where(claimable).orderBy('id').limit(1);
    if (isPostgres(this.db)) oldest = oldest.forUpdate().skipLocked();
    return this.db
      .updateTable('mail_outbox')
      .set({ locked_until: now + this.options.leaseMs })
      .where('id', '=', oldest)
      .where(claimable)
      .returning(['id', 'recipient', 'subject', 'text_body', 'html_body', 'attempts', 'broadcast_id'])
      .executeTakeFirst();
  }

  private async deliver(row: {
    id: number;
    recipient: string;
    subject: string;
    text_body: string;
    html_body: string;
    attempts: number;
    broadcast_id: number | null;
  }) {
    try {
      await this.transport.send({ id: row.id, to: row.recipient, subject: row.subject, text: row.text_body, html: row.html_body });
      await this.db
        .updateTable('mail_outbox')
        .set({ ...NO_BODY, sent_at: this.clock.now(), locked_until: null, attempts: row.attempts + 1, last_error: null })
        .where('id', '=', row.id)
        .execute();
    } catch (error) {
      if (this.cutOff) {
        // Back to the queue as it was, due at once: the next start, or another instance, sends it. (Had the server
        // already taken it, it arrives twice: as after a crash mid-send, SMTP gives no way to tell.)
        await this.db.updateTable('mail_outbox').set({ locked_until: null }).where('id', '=', row.id).execute();
        this.log.info({ mailId: row.id }, 'mail send cut off by the stop; it stays queued');
        return;
      }
      this.failedAttempts += 1;
      const attempts = row.attempts + 1;
      const permanent = error instanceof PermanentMailError;
      const delay = Math.min(this.options.retryBaseMs * 2 ** (attempts - 1), this.options.maxRetryDelayMs);
      const now = this.clock.now();
      this.log.warn({ err: error, mailId: row.id, attempts, permanent }, permanent ? 'mail refused for good' : 'mail not sent; will retry');
      const lastError = String((error as Error).message ?? error).slice(0, 500);
      await this.db.transaction().execute(async (trx) => {
        await trx
          .updateTable('mail_outbox')
          .set({
            ...(permanent ? NO_BODY : {}),
            attempts,
            locked_until: null,
            last_error: lastError,
            next_attempt_at: now + delay,
            failed_at: permanent ? now : null,
          })
          .where('id', '=', row.id)
          .execute();
        // A mail given up on is worth an operator's attention; a retry is not (it is in the log).
        if (permanent) {
          await recordAudit(trx, now, {
            actor: SYSTEM,
            action: 'mail.failed',
            details: { mail: row.id, recipient: row.recipient, broadcast: row.broadcast_id, error: lastError },
          });
        }
      });
    }
  }
}
