// A fresh MariaDB (or MySQL) database for an importer's source, built with the source project's own DDL, dropped
// afterwards. The server's address comes from TEST_MARIADB_URL (mysql://root@127.0.0.1:3306).
import { randomBytes } from 'node:crypto';
import { createConnection } from 'mysql2/promise';

export const mariadbUrl = process.env.TEST_MARIADB_URL;
// CI must not pass by skipping the importers' MariaDB sources: it sets REQUIRE_SERVICES=1.
if (process.env.REQUIRE_SERVICES === '1' && !mariadbUrl) throw new Error('REQUIRE_SERVICES=1 but TEST_MARIADB_URL is not set');
export const skipWithoutMariaDb = mariadbUrl ? false : 'set TEST_MARIADB_URL to run the importers against a MariaDB source';

export interface MariaDbSource {
  /** The URL to give `--from`. */
  url: string;
  /** Runs statements (several separated by `;` allowed) with `?` parameters. */
  run(sql: string, params?: unknown[]): Promise<void>;
  drop(): Promise<void>;
}

export async function createMariaDbSource(ddl: string): Promise<MariaDbSource> {
  if (!mariadbUrl) throw new Error('TEST_MARIADB_URL is not set');
  const name = `import_source_${randomBytes(6).toString('hex')}`;
  const admin = await createConnection({ uri: mariadbUrl });
  await admin.query(`CREATE DATABASE ${name} CHARACTER SET utf8mb4`);
  await admin.end();
  const url = new URL(mariadbUrl);
  url.pathname = `/${name}`;
  const connection = await createConnection({ uri: url.toString(), multipleStatements: true });
  await connection.query(ddl);
  return {
    url: url.toString(),
    run: async (sql, params = []) => {
      await connection.query(sql, params);
    },
    drop: async () => {
      await connection.query(`DROP DATABASE ${name}`);
      await connection.end();
    },
  };
}
