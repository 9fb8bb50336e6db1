// Opens the database named by the settings and brings its schema up to date.
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql, type Migration } from 'kysely';
import pg from 'pg';
import type { DatabaseSettings } from '../settings.ts';
import * as accounts from './migrations/001_accounts.ts';
import * as textures from './migrations/002_textures.ts';
import * as broadcasts from './migrations/003_broadcasts.ts';
import * as gameLogin from './migrations/004_game_login.ts';
import * as launcher from './migrations/005_launcher.ts';
import * as twoFactor from './migrations/006_two_factor.ts';
import * as registration from './migrations/007_registration.ts';
import * as discord from './migrations/008_discord.ts';
import * as language from './migrations/009_language.ts';
import * as expiryIndexes from './migrations/010_expiry_indexes.ts';
import * as codePasswords from './migrations/011_code_passwords.ts';
import * as playerCertificates from './migrations/012_player_certificates.ts';
import * as discordBrowser from './migrations/013_discord_browser.ts';
import * as deployment from './migrations/014_deployment.ts';
import * as profiles from './migrations/015_profiles.ts';
import * as importMap from './migrations/016_import_map.ts';
import * as appPasswords from './migrations/017_app_passwords.ts';
import * as oauth from './migrations/018_oauth.ts';
import * as passkeys from './migrations/019_passkeys.ts';
import { SERVICE_TYPES } from './pg-types.ts';
import * as mailTokens from './migrations/020_mail_tokens.ts';
import * as library from './migrations/021_library.ts';
import * as standing from './migrations/023_standing.ts';
import * as oidc from './migrations/025_oidc.ts';
import * as reports from './migrations/027_reports.ts';
import * as gameReports from './migrations/029_game_reports.ts';
import * as banEnds from './migrations/031_ban_ends.ts';
import * as friends from './migrations/033_friends.ts';
import * as oidcRegistration from './migrations/035_oidc_registration.ts';
import * as premium from './migrations/037_premium.ts';
import * as libraryPages from './migrations/041_library_pages.ts';
import { PipelinedReads } from './pipelined-reads.ts';
import type { Database } from './schema.ts';

const MIGRATIONS: Record<string, Migration> = {
  '001_accounts': accounts,
  '002_textures': textures,
  '003_broadcasts': broadcasts,
  '004_game_login': gameLogin,
  '005_launcher': launcher,
  '006_two_factor': twoFactor,
  '007_registration': registration,
  '008_discord': discord,
  '009_language': language,
  '010_expiry_indexes': expiryIndexes,
  '011_code_passwords': codePasswords,
  '012_player_certificates': playerCertificates,
  '013_discord_browser': discordBrowser,
  '014_deployment': deployment,
  '015_profiles': profiles,
  '016_import_map': importMap,
  '017_app_passwords': appPasswords,
  '018_oauth': oauth,
  '019_passkeys': passkeys,
  '020_mail_tokens': mailTokens,
  '021_library': library,
  '023_standing': standing,
  '025_oidc': oidc,
  '027_reports': reports,
  '029_game_reports': gameReports,
  '031_ban_ends': banEnds,
  '033_friends': friends,
  '035_oidc_registration': oidcRegistration,
  '037_premium': premium,
  '041_library_pages': libraryPages,
};

/**
 * `onConnectionError` hears of PostgreSQL connections that broke (a server restart, an administrator's termination).
 * Without a listener pg would raise them as uncaught errors and stop the process; the pool replaces such connections
 * by itself, and a query that was running on one fails.
 */
export function openDatabase(settings: DatabaseSettings, onConnectionError: (error: Error) => void = () => {}): Kysely<Database> {
  if (settings.kind === 'postgres') {
    const pool = new pg.Pool({ connectionString: settings.url, max: POSTGRES_POOL_SIZE, types: SERVICE_TYPES });
    // Each connection keeps a listener of its own: the pool listens only while a connection is idle, and one checked
    // out (a transaction between two statements) that breaks would otherwise stop the process.
    pool.on('connect', (client) => client.on('error', onConnectionError));
    pool.on('error', () => {}); // repeats what the connection's own listener heard
    const reads = new PipelinedReads(settings.url, onConnectionError);
    // Kysely ends the pool on destroy(); the reads' connection ends with it.
    const endsBoth = { connect: () => pool.connect(), end: async () => void (await Promise.all([reads.close(), pool.end()])) };
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: endsBoth }) });
    postgresPools.set(db, pool);
    postgresReads.set(db, reads);
    return db;
  }
  mkdirSync(dirname(settings.file), { recursive: true, mode: 0o700 });
  // Created private before SQLite opens it: SQLite gives its -wal and -shm files the database file's mode.
  if (settings.file !== ':memory:') closeSync(openSync(settings.file, 'a', 0o600));
  const connection = new SQLite(settings.file);
  connection.pragma('journal_mode = WAL');
  connection.pragma('foreign_keys = ON');
  connection.pragma('busy_timeout = 5000');
  // WAL makes NORMAL durable across application crashes; only a power loss may drop the last commits.
  connection.pragma('synchronous = NORMAL');
  const cached = withStatementCache(connection);
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: cached }) });
  sqliteConnections.set(db, connection);
  return db;
}

const POSTGRES_POOL_SIZE = 10;
const postgresPools = new WeakMap<Kysely<Database>, pg.Pool>();

/** Connections open, idle and waited for. SQLite has its one connection, idle whenever something can ask. */
export function connectionPoolUse(db: Kysely<Database>): { total: number; idle: number; waiting: number; max: number } {
  const pool = postgresPools.get(db);
  if (!pool) return { total: 1, idle: 1, waiting: 0, max: 1 };
  return { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: POSTGRES_POOL_SIZE };
}

const sqliteConnections = new WeakMap<Kysely<Database>, SQLite.Database>();
const postgresReads = new WeakMap<Kysely<Database>, PipelinedReads>();

/** The SQLite connection behind `db` (the compiled-once reads of reusable-query.ts, backups); undefined on PostgreSQL. */
export function sqliteConnection(db: Kysely<Database>): SQLite.Database | undefined {
  return sqliteConnections.get(db);
}

/** The PostgreSQL connection of the compiled-once reads of reusable-query.ts; undefined on SQLite. */
export function pipelinedReads(db: Kysely<Database>): PipelinedReads | undefined {
  return postgresReads.get(db);
}

/**
 * Kysely prepares every query anew; preparing costs far more than running a small query (measured: 99 us against
 * 11 us for the session lookup). Statements are reused by SQL text. Kysely runs one query at a time on the
 * connection, so a cached statement is never in use twice.
 */
function withStatementCache(connection: SQLite.Database) {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close: () => connection.close(),
    prepare(sqlText: string) {
      let statement = statements.get(sqlText);
      if (!statement) {
        // Query shapes are few (lists vary in length at most); the bound only guards against a pathological caller.
        if (statements.size >= 1000) statements.clear();
        statement = connection.prepare(sqlText);
        statements.set(sqlText, statement);
      }
      return statement;
    },
  };
}

/** Applies every pending migration; Kysely's migration lock makes concurrent starts safe. */
export async function migrateToLatest(db: Kysely<Database>): Promise<void> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => MIGRATIONS } });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  if (error || failed) {
    throw new Error(`Database migration ${failed?.migrationName ?? ''} failed: ${String((error as Error)?.message ?? error)}`);
  }
}

export async function databaseAnswers(db: Kysely<Database>): Promise<boolean> {
  try {
    await sql`select 1`.execute(db);
    return true;
  } catch {
    return false;
  }
}
