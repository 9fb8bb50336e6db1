// Removes sessions and tokens that can no longer be used: web sessions past their expiry, game login tokens past
// theirs, launcher sessions past their refresh expiry. Every login adds a row, so without this the tables grow for
// as long as the service runs. A row is only removed once the checks that read it would refuse it anyway (revoked
// rows stay until they expire: their token still exists until then). Several instances may run it at once: each
// delete removes what it finds and nothing else.
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Clock } from '../clock.ts';
import type { Database } from '../database/schema.ts';
import { BackgroundLoop } from '../background-loop.ts';

const HOUSEKEEPING_INTERVAL_MS = 3600_000;

/** Rows removed per statement: a large backlog (the first pass on an old database) never holds the writer long. */
const BATCH = 1000;

/** The tables and the column that says when a row ends. */
const ENDED = [
  { table: 'sessions', ends: 'expires_at' },
  { table: 'game_tokens', ends: 'expires_at' },
  { table: 'launcher_sessions', ends: 'refresh_expires_at' },
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
    for (const { table, ends } of ENDED) {
      removed[table] = 0;
      for (;;) {
        const batch = this.db.selectFrom(table).select('id').where(ends, '<=', now).limit(BATCH);
        const result = await this.db.deleteFrom(table).where('id', 'in', batch).executeTakeFirst();
        const count = Number(result.numDeletedRows);
        removed[table] += count;
        if (count < BATCH) break;
      }
    }
    if (Object.values(removed).some((count) => count > 0)) this.log.info({ removed }, 'removed ended sessions and tokens');
    return removed;
  }
}
