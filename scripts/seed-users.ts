// Fills the configured database with test users: `npm run seed -- 100000`. Every seeded user has the password
// "seeded password" (one hash shared by all: hashing 100,000 passwords would take an hour) and a verified mail.
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { hashPassword } from '../src/accounts/passwords.ts';
import { migrateToLatest, openDatabase } from '../src/database/connect.ts';
import type { Database } from '../src/database/schema.ts';
import { loadSettings } from '../src/settings.ts';

export const SEEDED_PASSWORD = 'seeded password';

/** Inserts `count` players named seed_1, seed_2, ... (continuing after any seeded before); returns their UUIDs. */
export async function seedUsers(db: Kysely<Database>, count: number): Promise<string[]> {
  const hash = await hashPassword(SEEDED_PASSWORD);
  const { seeded } = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('seeded'))
    .where('username_key', 'like', 'seed\\_%')
    .executeTakeFirstOrThrow();
  const first = Number(seeded) + 1;
  const uuids: string[] = [];
  const now = Date.now();
  for (let start = 0; start < count; start += 1000) {
    const rows = Array.from({ length: Math.min(1000, count - start) }, (_, offset) => {
      const n = first + start + offset;
      const uuid = randomUUID();
      uuids.push(uuid);
      return {
        username: `seed_${n}`,
        username_key: `seed_${n}`,
        mail: `seed_${n}@example.org`,
        mail_key: `seed_${n}@example.org`,
        mail_verify: 1,
        mail_verification: 1,
        password: hash,
        uuid,
        perms: 0,
        created_at: now,
        updated_at: now,
      };
    });
    await db.transaction().execute((trx) => trx.insertInto('users').values(rows).execute());
  }
  return uuids;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const count = Number(process.argv[2] ?? 100_000);
  if (!Number.isInteger(count) || count < 1) {
    console.error('Usage: npm run seed -- COUNT (a whole number of users to add)');
    process.exit(1);
  }
  const db = openDatabase(loadSettings().database);
  await migrateToLatest(db);
  const started = performance.now();
  await seedUsers(db, count);
  console.log(`Seeded ${count} users in ${((performance.now() - started) / 1000).toFixed(1)} s (password: "${SEEDED_PASSWORD}")`);
  await db.destroy();
}
