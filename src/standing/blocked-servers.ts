// Blocked servers (contract section 24): game server addresses the game refuses to join. The game (its launcher's
// network code) asks sessionserver/blockedservers for SHA-1 hashes, one a line, and hashes the lowercased host it
// joins and its wildcard forms (`*.example.com`, `192.168.*`) to compare: so each entry is kept as it is hashed.
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Acting } from '../audit/acting.ts';
import { recordAudit } from '../audit/audit.ts';
import { type Clock, unixSeconds } from '../clock.ts';
import { isUniqueViolation } from '../database/dialect.ts';
import type { Database } from '../database/schema.ts';
import { badRequest, conflict, notFound } from '../http/envelope.ts';

/** A blocked server as the admin API answers it. */
export interface BlockedServer {
  id: number;
  /** Lower case, as the game hashes it. */
  address: string;
  /** What sessionserver/blockedservers answers for it. */
  sha1: string;
  /** Unix seconds. */
  created: number;
  /** The administrator who blocked it. */
  by: string;
}

const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
/** A host name or IP address, or one with a leading `*.` (`*.example.com`). */
const HOST = new RegExp(`^(?:\\*\\.)?${LABEL}(?:\\.${LABEL})*$`);
/** An IPv4 prefix as the game tries them: `192.168.0.*`, `192.168.*`, `192.*`. */
const IP_PREFIX = /^(?:\d{1,3}\.){1,3}\*$/;
export const MAX_ADDRESS_LENGTH = 253;

/** The address as the game hashes it (lower case), or null when it is not one the game would ever hash. */
export function normalizeServerAddress(raw: string): string | null {
  const address = raw.trim().toLowerCase();
  if (address.length === 0 || address.length > MAX_ADDRESS_LENGTH) return null;
  return HOST.test(address) || IP_PREFIX.test(address) ? address : null;
}

const sha1 = (address: string) => createHash('sha1').update(address, 'latin1').digest('hex');

type Row = { id: number; address: string; created_at: number | string | bigint; created_by_name: string };
const toRecord = (row: Row): BlockedServer => ({
  id: row.id,
  address: row.address,
  sha1: sha1(row.address),
  created: unixSeconds(Number(row.created_at)),
  by: row.created_by_name,
});

export class BlockedServers {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
  ) {}

  /** Every blocked server, the newest first. */
  async list(): Promise<BlockedServer[]> {
    const rows = await this.db.selectFrom('blocked_servers').selectAll().orderBy('id', 'desc').execute();
    return rows.map(toRecord);
  }

  /** What the game reads: one SHA-1 a line. */
  async hashes(): Promise<string> {
    const rows = await this.db.selectFrom('blocked_servers').select('address').orderBy('id').execute();
    return rows.map((row) => sha1(row.address)).join('\n');
  }

  /** Blocks an address (audited as blocked_server.add); the same address twice is a 409. */
  async add(acting: Acting, raw: string): Promise<BlockedServer> {
    const address = normalizeServerAddress(raw);
    if (address === null) throw badRequest('blockedServers.addressFormat', { field: 'address' });
    const now = this.clock.now();
    try {
      return await this.db.transaction().execute(async (trx) => {
        const row = await trx
          .insertInto('blocked_servers')
          .values({ address, created_at: now, created_by_name: acting.actor.name })
          .returningAll()
          .executeTakeFirstOrThrow();
        await recordAudit(trx, now, { actor: acting.actor, action: 'blocked_server.add', details: { address } });
        return toRecord(row);
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict('blockedServers.alreadyBlocked', { address });
      throw error;
    }
  }

  /** Unblocks one (audited as blocked_server.remove) and answers what it was. */
  async remove(acting: Acting, id: number): Promise<BlockedServer> {
    return this.db.transaction().execute(async (trx) => {
      const row = await trx.deleteFrom('blocked_servers').where('id', '=', id).returningAll().executeTakeFirst();
      if (!row) throw notFound('blockedServers.noSuchServer', { id: String(id) });
      const now = this.clock.now();
      await recordAudit(trx, now, { actor: acting.actor, action: 'blocked_server.remove', details: { address: row.address } });
      return toRecord(row);
    });
  }
}
