// Mail to all verified users (POST /api/admin/mail). The request only records the broadcast; a background loop
// queues its recipients into the outbox one batch at a time, in user-id order, advancing the broadcast's cursor in
// the same transaction as the batch. A restart resumes after the last committed batch: nobody twice, nobody missed.
import { permsAt } from '../database/perms.ts';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Acting } from '../audit/acting.ts';
import { recordAudit, SYSTEM } from '../audit/audit.ts';
import type { Clock } from '../clock.ts';
import { isPostgres } from '../database/dialect.ts';
import type { Database } from '../database/schema.ts';
import { badRequest } from '../http/envelope.ts';
import { BackgroundLoop } from '../background-loop.ts';
import { queueMail } from './outbox.ts';
import { broadcastMessage } from './templates.ts';

export interface BroadcastOptions {
  /** Recipients queued per pass. */
  batchSize: number;
  /** Pause between passes, so that a large broadcast does not crowd out the requests being served. */
  intervalMs: number;
}

export const DEFAULT_BROADCAST_OPTIONS: BroadcastOptions = { batchSize: 200, intervalMs: 1_000 };

export class Broadcaster {
  private readonly loop: BackgroundLoop;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    log: FastifyBaseLogger,
    private readonly options: BroadcastOptions,
    /** Wakes the mail worker after a batch was queued. */
    private readonly mailQueued: () => void,
  ) {
    this.loop = new BackgroundLoop('broadcast', () => this.queueNextBatch(), options.intervalMs, log);
  }

  start() {
    this.loop.start();
  }

  stop() {
    return this.loop.stop();
  }

  /** Records a broadcast to every verified, unbanned user and returns how many that is now. */
  async create(acting: Acting, subject: string, message: string): Promise<number> {
    const title = subject.trim();
    if (title.length < 1 || title.length > 200) throw badRequest('mail.subjectLength');
    if (message.trim().length < 1 || message.length > 20_000) throw badRequest('mail.messageLength');
    const recipients = await this.db.transaction().execute(async (trx) => {
      const now = this.clock.now();
      const { id } = await trx
        .insertInto('broadcasts')
        .values({ subject: title, message, created_by: acting.actor.id, created_at: now, last_user_id: 0, queued: 0, finished_at: null })
        .returning('id')
        .executeTakeFirstOrThrow();
      const { count } = await this.recipients(trx, 0)
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .executeTakeFirstOrThrow();
      await recordAudit(trx, now, {
        actor: acting.actor,
        action: 'mail.broadcast',
        details: { broadcast: id, subject: title, recipients: Number(count) },
      });
      return Number(count);
    });
    this.loop.wake();
    return recipients;
  }

  /** Verified users who are not banned, after `afterUserId`, in id order. */
  private recipients(db: Kysely<Database>, afterUserId: number) {
    return db.selectFrom('users').where('mail_verify', '=', 1).where(permsAt(this.clock.now()), '>=', 0).where('id', '>', afterUserId);
  }

  /** Queues one batch of the oldest unfinished broadcast; wakes itself again while there is more. */
  private async queueNextBatch(): Promise<void> {
    const progress = await this.db.transaction().execute(async (trx) => {
      let pending = trx.selectFrom('broadcasts').selectAll().where('finished_at', 'is', null).orderBy('id').limit(1);
      // Several instances: one of them works on a broadcast at a time, the others skip it.
      if (isPostgres(trx)) pending = pending.forUpdate().skipLocked();
      const broadcast = await pending.executeTakeFirst();
      if (!broadcast) return null;
      const batch = await this.recipients(trx, broadcast.last_user_id)
        .select(['id', 'mail'])
        .orderBy('id')
        .limit(this.options.batchSize)
        .execute();
      const now = this.clock.now();
      await queueMail(
        trx,
        now,
        batch.map((user) => user.mail),
        broadcastMessage(broadcast.subject, broadcast.message),
        broadcast.id,
      );
      const finished = batch.length < this.options.batchSize;
      const queued = broadcast.queued + batch.length;
      await trx
        .updateTable('broadcasts')
        .set({ last_user_id: batch.at(-1)?.id ?? broadcast.last_user_id, queued, finished_at: finished ? now : null })
        .where('id', '=', broadcast.id)
        .execute();
      await recordAudit(trx, now, {
        actor: SYSTEM,
        action: finished ? 'mail.broadcast_queued' : 'mail.broadcast_progress',
        details: { broadcast: broadcast.id, queued },
      });
      return { queuedNow: batch.length, finished };
    });
    if (progress && progress.queuedNow > 0) this.mailQueued();
  }
}
