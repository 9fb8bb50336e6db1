// Removes sessions and tokens that can no longer be used: web sessions past their expiry, game login tokens past
// theirs, launcher sessions past their refresh expiry, players' chat-signing key pairs past theirs; and sent mail a
// day after it left (a day to look into a complaint about it; given-up mail stays for the operator). Every login adds
// a row, so without this the tables grow for as long as the service runs. A row is only removed once the checks that
// read it would refuse it anyway (revoked rows stay until they expire: their token still exists until then). Several
// instances may run it at once: each delete removes what it finds and nothing else.
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Clock } from '../clock.ts';
import type { Database } from '../database/schema.ts';
import { BackgroundLoop } from '../background-loop.ts';
import { SESSION_TABLES } from '../sessions/kinds.ts';

const HOUSEKEEPING_INTERVAL_MS = 3600_000;

/** Rows removed per statement: a large backlog (the first pass on an old database) never holds the writer long. */
const BATCH = 1000;

export const SENT_MAIL_KEPT_MS = 24 * 3600_000;

/** The tables, the column that says when a row ends, and how long an ended row is kept: every table of sessions and
 * tokens, and more. oidc-provider's codes and tokens go at their end: a device code or an authorization request nobody
 * finished ends 10 minutes after it was made (contract 15b), so what strangers leave behind goes at the next pass. Until
 * then a late poll is told expired_token; after it, invalid_grant (an unknown code), as a launcher that polls past
 * expires_in deserves. */
const ENDED = [
  ...SESSION_TABLES.map(({ table, ends }) => ({ table, ends, keptMs: 0 })),
  { table: 'player_certificates', ends: 'expires_at', keptMs: 0 },
  { table: 'mail_outbox', ends: 'sent_at', keptMs: SENT_MAIL_KEPT_MS },
  { table: 'passkey_challenges', ends: 'expires_at', keptMs: 0 },
] as const;

type Removed = Record<(typeof ENDED)[number]['table'], number>;

export class Housekeeping {
  private readonly loop: BackgroundLoop;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly log: FastifyBaseLogger,
    intervalMs = HOUSEKEEPING_INTERVAL_MS,
  ) {
    this.loop = new BackgroundLoop('housekeeping', () => this.pass().then(() => undefined), intervalMs, log);
  }

  start() {
    this.loop.start();
  }

  stop() {
    return this.loop.stop();
  }

  /** One pass over every table; returns how many rows it removed from each. */
  async pass(): Promise<Removed> {
    const now = this.clock.now();
    const removed = {} as Removed;
    for (const { table, ends, keptMs } of ENDED) {
      removed[table] = 0;
      for (;;) {
        const batch = this.db
          .selectFrom(table)
          .select('id')
          .where(ends, '<=', now - keptMs)
          .limit(BATCH);
        const result = await this.db.deleteFrom(table).where('id', 'in', batch).executeTakeFirst();
        const count = Number(result.numDeletedRows);
        removed[table] += count;
        if (count < BATCH) break;
      }
    }
    if (Object.values(removed).some((count) => count > 0))
      this.log.info({ removed }, 'removed ended sessions, tokens, certificate key pairs and sent mail');
    return removed;
  }
}
