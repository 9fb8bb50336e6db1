// The Discord flow is bound to the browser that began it (contract section 15): each authorization request and each
// login's one-time code keep the SHA-256 hash of the random nonce the beginning browser holds in an HttpOnly cookie.
import type { Kysely } from 'kysely';

const TABLES = ['discord_states', 'discord_login_codes'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of TABLES) {
    // SQLite adds a NOT NULL column only with a default. '' is no hash, so it matches no browser: a request begun
    // before the upgrade (minutes old at most) is refused, and the player begins again.
    await db.schema
      .alterTable(table)
      .addColumn('browser_hash', 'text', (c) => c.notNull().defaultTo(''))
      .execute();
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of TABLES) await db.schema.alterTable(table).dropColumn('browser_hash').execute();
}
