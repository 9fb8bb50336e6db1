// CookieCMS's tables as its knex migrations make them (Cookie-cms/cookiecms-js: migrations/cookiecms.init.js and
// perms.js), column for column, with its permission groups, on each database knex runs them on: MySQL/MariaDB,
// PostgreSQL (CookieCMS's default DB_TYPE, `pg`) and SQLite. The importer's tests and benchmark build their source
// from it.
//
// `hwids.publickey` and `displayId` changed type: the first knex migration (2025-06-01) and the SQL dumps before it
// kept them as `binary` (MySQL `blob`, PostgreSQL `bytea`), the launcher's key as bytes; since 2025-06-06 they are
// strings holding the key in base64, as CookieCMS's LaunchServer endpoints receive it. `hardwareKeys` picks one.
export type CookieCmsDatabase = 'mysql' | 'postgres' | 'sqlite';

export interface CookieCmsSchema {
  /** 'text' (the current migration: base64 in a string) or 'bytes' (the earlier one: binary). */
  hardwareKeys?: 'text' | 'bytes';
}

const TYPES = {
  mysql: {
    increments: 'int unsigned NOT NULL AUTO_INCREMENT PRIMARY KEY',
    bigIncrements: 'bigint unsigned NOT NULL AUTO_INCREMENT PRIMARY KEY',
    unsignedReference: 'int unsigned',
    // knex's bigInteger; unsigned here so that the foreign key to hwids.id (bigIncrements) is accepted by MySQL.
    hwidReference: 'bigint unsigned',
    string: 'varchar(255)',
    boolean: 'tinyint(1)',
    false: '0',
    true: '1',
    uuid: 'char(36)',
    binary: 'blob',
    timestamp: 'timestamp NULL',
  },
  postgres: {
    increments: 'serial PRIMARY KEY',
    bigIncrements: 'bigserial PRIMARY KEY',
    unsignedReference: 'integer',
    hwidReference: 'bigint',
    string: 'varchar(255)',
    boolean: 'boolean',
    false: 'false',
    true: 'true',
    uuid: 'uuid',
    binary: 'bytea',
    timestamp: 'timestamptz',
  },
  sqlite: {
    increments: 'integer NOT NULL PRIMARY KEY AUTOINCREMENT',
    bigIncrements: 'integer NOT NULL PRIMARY KEY AUTOINCREMENT',
    unsignedReference: 'integer',
    hwidReference: 'bigint',
    string: 'varchar(255)',
    boolean: 'boolean',
    false: "'0'",
    true: "'1'",
    uuid: 'char(36)',
    binary: 'blob',
    timestamp: 'datetime',
  },
} as const;

/** CookieCMS's tables on `database`, as statements separated by `;`. */
export function cookieCmsDdl(database: CookieCmsDatabase, schema: CookieCmsSchema = {}): string {
  const t = TYPES[database];
  // knex quotes every name: mixed-case ones keep their case on PostgreSQL.
  const q = (name: string) => (database === 'mysql' ? `\`${name}\`` : `"${name}"`);
  const key = schema.hardwareKeys === 'bytes' ? t.binary : t.string;
  const foreignKey = (column: string, table: string, target: string, onDelete: string) =>
    `FOREIGN KEY (${column}) REFERENCES ${table} (${target}) ON DELETE ${onDelete}`;
  return `
CREATE TABLE permissions_groups (id ${t.increments}, name ${t.string} NOT NULL, description text, level integer NOT NULL,
  is_default ${t.boolean} DEFAULT ${t.false}, created_at ${t.timestamp} DEFAULT CURRENT_TIMESTAMP);
CREATE TABLE cloaks_lib (uuid ${t.string} NOT NULL PRIMARY KEY, name ${t.string} NOT NULL);
CREATE TABLE hwids (id ${t.bigIncrements}, publickey ${key}, ${q('hwDiskId')} ${t.string},
  ${q('baseboardSerialNumber')} ${t.string}, ${q('graphicCard')} ${t.string}, ${q('displayId')} ${key}, bitness integer,
  ${q('totalMemory')} bigint, ${q('logicalProcessors')} integer, ${q('physicalProcessors')} integer,
  ${q('processorMaxFreq')} bigint, battery ${t.boolean} NOT NULL DEFAULT ${t.false}, banned ${t.boolean} NOT NULL DEFAULT ${t.false});
CREATE TABLE users (id ${t.increments}, username ${t.string}, dsid varchar(100), mail ${t.string}, mail_verify integer DEFAULT 0,
  uuid ${t.uuid}, password ${t.string}, perms integer NOT NULL DEFAULT 1, ${q('accessToken')} varchar(32),
  ${q('serverID')} varchar(41), ${q('hwidId')} ${t.hwidReference}, permission_group_id ${t.unsignedReference} NULL,
  ${foreignKey(q('hwidId'), 'hwids', 'id', 'SET NULL')}, ${foreignKey('permission_group_id', 'permissions_groups', 'id', 'SET NULL')});
CREATE TABLE skins_library (uuid ${t.string} NOT NULL PRIMARY KEY, name ${t.string} NOT NULL, ownerid ${t.unsignedReference} NOT NULL,
  slim ${t.boolean} NOT NULL DEFAULT ${t.false}, hd ${t.boolean} NOT NULL DEFAULT ${t.false},
  disabled ${t.boolean} NOT NULL DEFAULT ${t.false}, cloak_id varchar(256) NOT NULL DEFAULT '0',
  ${foreignKey('ownerid', 'users', 'id', 'CASCADE')});
CREATE TABLE cloaks_users (id ${t.increments}, uid ${t.unsignedReference} NOT NULL, cloak_id ${t.string} NOT NULL,
  ${foreignKey('uid', 'users', 'id', 'CASCADE')}, ${foreignKey('cloak_id', 'cloaks_lib', 'uuid', 'CASCADE')});
CREATE TABLE skin_user (uid ${t.unsignedReference} NOT NULL UNIQUE, skin_id varchar(100) NOT NULL,
  ${foreignKey('uid', 'users', 'id', 'CASCADE')}, ${foreignKey('skin_id', 'skins_library', 'uuid', 'CASCADE')});
CREATE TABLE discord (userid bigint NOT NULL PRIMARY KEY, avatar_cache varchar(256) NOT NULL, name_gb varchar(256) NOT NULL,
  conn_id integer, mail varchar(256), expire bigint);
${database === 'mysql' ? "SET SESSION sql_mode = CONCAT(@@sql_mode, ',NO_AUTO_VALUE_ON_ZERO');" : ''}
INSERT INTO permissions_groups (id, name, level, is_default) VALUES (0, 'Guest', 0, ${t.true}), (1, 'User', 1, ${t.false}),
  (2, 'Premium', 2, ${t.false}), (3, 'Moderator', 3, ${t.false}), (4, 'Admin', 4, ${t.false}), (5, 'Owner', 5, ${t.false});
`;
}

/** The MySQL/MariaDB tables of CookieCMS's current migration. */
export const COOKIECMS_DDL = cookieCmsDdl('mysql');
