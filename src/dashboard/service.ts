// The console's first view (issue 14, item 9): accounts, textures, the mail queue and the latest audit entries,
// counted in the database on each request (a handful of counts; the users' four figures in one pass).
import { permsAt } from '../accounts/standing.ts';
import { sql, type Kysely } from 'kysely';
import { unixSeconds, type Clock } from '../clock.ts';
import type { Database } from '../database/schema.ts';
import type { Dashboard } from '../http/shapes/dashboard.ts';
import type { RegistrationModeName } from '../http/shapes/registration.ts';
import { outboxCounts } from '../mail/outbox.ts';

const WEEK_MS = 7 * 86_400_000;
const AUDIT_ENTRIES = 10;

export class DashboardService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    /** The registration mode in force (registration/). */
    private readonly registrationMode: () => Promise<RegistrationModeName>,
  ) {}

  async overview(): Promise<Dashboard> {
    const { db } = this;
    const weekAgo = this.clock.now() - WEEK_MS;
    const countOf = <T extends { n: number | string | bigint | null }>(row: T | undefined) => Number(row?.n ?? 0);
    const [users, skins, capes, skinBytes, capeBytes, outbox, broadcast, mode, audit] = await Promise.all([
      // One pass over users for its four figures.
      db
        .selectFrom('users')
        .select((eb) => [
          eb.fn.countAll<number>().as('total'),
          eb.fn.sum<number>(sql`case when created_at > ${weekAgo} then 1 else 0 end`).as('new_this_week'),
          eb.fn.sum<number>(sql`case when mail_verify = 0 then 1 else 0 end`).as('unverified'),
          eb.fn.sum<number>(sql`case when ${permsAt(this.clock.now())} < 0 then 1 else 0 end`).as('banned'),
        ])
        .executeTakeFirstOrThrow(),
      db
        .selectFrom('skins')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirst(),
      db
        .selectFrom('capes')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirst(),
      // Each texture file once, however many records share it (textures are content-addressed).
      db
        .selectFrom('textures')
        .select((eb) => eb.fn.sum<number>('byte_size').as('n'))
        .where('digest', 'in', db.selectFrom('skins').select('texture_digest'))
        .executeTakeFirst(),
      db
        .selectFrom('textures')
        .select((eb) => eb.fn.sum<number>('byte_size').as('n'))
        .where('digest', 'in', db.selectFrom('capes').select('texture_digest'))
        .executeTakeFirst(),
      outboxCounts(db),
      db
        .selectFrom('broadcasts')
        .select(['id', 'subject', 'created_at', 'queued'])
        .where('finished_at', 'is', null)
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirst(),
      this.registrationMode(),
      db
        .selectFrom('audit_log')
        .leftJoin('users', 'users.id', 'audit_log.target_id')
        .select([
          'audit_log.id',
          'audit_log.iss',
          'audit_log.actor_id',
          'audit_log.action',
          'audit_log.target_id',
          'audit_log.time',
          'audit_log.details',
          'users.username',
          'users.mail',
        ])
        .orderBy('audit_log.id', 'desc')
        .limit(AUDIT_ENTRIES)
        .execute(),
    ]);
    return {
      accounts: {
        total: Number(users.total),
        new_this_week: Number(users.new_this_week ?? 0),
        unverified: Number(users.unverified ?? 0),
        banned: Number(users.banned ?? 0),
      },
      skins: { count: countOf(skins), bytes: countOf(skinBytes) },
      capes: { count: countOf(capes), bytes: countOf(capeBytes) },
      mail: { queued: outbox.pending, failed: outbox.failed },
      broadcast: broadcast
        ? { id: broadcast.id, subject: broadcast.subject, started_at: unixSeconds(broadcast.created_at), queued: broadcast.queued }
        : null,
      registration: mode,
      audit: audit.map((row) => ({
        id: row.id,
        iss: row.iss,
        iss_id: row.actor_id,
        action: row.action,
        for: row.target_id ?? 0,
        for_name: row.username ?? row.mail ?? '',
        time: row.time,
        details: row.details ? (JSON.parse(row.details) as Record<string, unknown>) : null,
      })),
    };
  }
}
