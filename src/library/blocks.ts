// Blocked pictures (contract section 19): admins block a canonical texture digest, and no way in (web upload, game
// login, import, library save) accepts it any more; a live library entry of it is unpublished with the block.
import type { Kysely } from 'kysely';
import type { Acting } from '../audit/acting.ts';
import { recordAudit } from '../audit/audit.ts';
import { unixSeconds, type Clock } from '../clock.ts';
import type { Database, Executor } from '../database/schema.ts';
import { badRequest, conflict, notFound } from '../http/envelope.ts';

export interface TextureBlock {
  digest: string;
  reason: string;
  /** Unix seconds. */
  created: number;
}

const DIGEST = /^[0-9a-f]{64}$/;

export class TextureBlocks {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
  ) {}

  async list(): Promise<TextureBlock[]> {
    const rows = await this.db
      .selectFrom('texture_blocks')
      .select(['digest', 'reason', 'created_at'])
      .orderBy('created_at', 'desc')
      .execute();
    return rows.map((row) => ({ digest: row.digest, reason: row.reason, created: unixSeconds(Number(row.created_at)) }));
  }

  async block(acting: Acting, digest: string, reason = ''): Promise<TextureBlock> {
    const now = this.clock.now();
    const why = await this.db.transaction().execute(async (trx) => {
      const why = await blockIn(trx, now, acting, digest, reason);
      if (why === null) throw conflict('library.blockedAlready');
      return why;
    });
    return { digest, reason: why, created: unixSeconds(now) };
  }

  async unblock(acting: Acting, digest: string): Promise<{ digest: string }> {
    await this.db.transaction().execute(async (trx) => {
      const removed = await trx.deleteFrom('texture_blocks').where('digest', '=', digest).executeTakeFirst();
      if (removed.numDeletedRows === 0n) throw notFound('library.notBlocked', { digest });
      await recordAudit(trx, this.clock.now(), { actor: acting.actor, action: 'texture.unblock', details: { digest } });
    });
    return { digest };
  }
}

/**
 * Blocks `digest` within the caller's transaction and unpublishes its live library entry, audited as texture.block;
 * null (and nothing changed) when it is blocked already. Moderation actions (reports.ts) share it.
 */
export async function blockIn(trx: Executor, now: number, acting: Acting, digest: string, reason = ''): Promise<string | null> {
  if (!DIGEST.test(digest)) throw badRequest('library.notDigest', { field: 'digest' });
  const why = reason.trim();
  if (why.length > 500) throw badRequest('textures.reasonTooLong', { field: 'reason' });
  const existing = await trx.selectFrom('texture_blocks').select('digest').where('digest', '=', digest).executeTakeFirst();
  if (existing) return null;
  await trx.insertInto('texture_blocks').values({ digest, reason: why, created_by: acting.accountId, created_at: now }).execute();
  const unpublished = await trx
    .updateTable('library_entries')
    .set({ state: 'withdrawn', live_digest: null })
    .where('live_digest', '=', digest)
    .returning('id')
    .execute();
  await recordAudit(trx, now, {
    actor: acting.actor,
    action: 'texture.block',
    details: { digest, reason: why, unpublished: unpublished.map((entry) => entry.id) },
  });
  return why;
}
