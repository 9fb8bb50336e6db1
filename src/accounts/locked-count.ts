// Per-account limits on what a player adds (app passwords, passkeys): counted with the account's row locked on
// PostgreSQL, so that two additions at once cannot both pass the limit (SQLite runs one writer at a time).
import type { Transaction } from 'kysely';
import { isPostgres } from '../database/dialect.ts';
import type { Database } from '../database/schema.ts';

/** How many rows of `table` the account has, within `trx`, which holds the account's row until it ends. */
export async function lockedCount(trx: Transaction<Database>, table: 'app_passwords' | 'passkeys', userId: number): Promise<number> {
  let account = trx.selectFrom('users').select('id').where('id', '=', userId);
  if (isPostgres(trx)) account = account.forUpdate();
  await account.executeTakeFirstOrThrow();
  const { count } = await trx
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(count);
}
