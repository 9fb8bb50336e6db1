// Blessing Skin (bs-community/blessing-skin-server, database/migrations and app/Services/Cipher): `users` (permission
// -1 banned, 0 normal, 1 admin, 2 super admin), `players` (a user's game names; `player_name` before the 2019-03-13
// migration renamed it `name`), `textures` (type steve, alex or cape; the file is DIR/{hash}, no extension),
// `user_closet` (a user's wardrobe: the textures it collected, each with its own `item_name`) and, when its Yggdrasil
// plugin ran, `uuid` (name → 32-hex UUID; yggdrasil-connect adds `pid`). Passwords are hashed by the site-wide
// PWD_METHOD with the site-wide SALT (.env), which the owner tells us: the hex methods all look alike.
import { normalizeUuid } from '../../accounts/identifiers.ts';
import { taggedHash, type ImportedFormat } from '../../accounts/imported-passwords.ts';
import { offlinePlayerUuid } from '../../minecraft/offline-uuid.ts';
import type { ImportedAccount, ImportedCape, ImportedProfile, ImportedSkin, LeftOut, SourceReader } from '../model.ts';
import { modularCryptHash, unusablePassword } from '../passwords.ts';
import { BATCH_SIZE, ImportOptionError, type ImportOptions } from '../options.ts';
import { SourceError, type SourceDb } from '../source-db.ts';
import { fileReader, idList } from './files.ts';

/** Blessing Skin's PWD_METHOD values (its .env.example), and what each stores. */
const METHODS = {
  BCRYPT: 'crypt',
  ARGON2I: 'crypt',
  PHP_PASSWORD_HASH: 'crypt',
  MD5: { format: 'md5', hexLength: 32 },
  SALTED2MD5: { format: 'salted2md5', hexLength: 32 },
  SHA256: { format: 'sha256', hexLength: 64 },
  SALTED2SHA256: { format: 'salted2sha256', hexLength: 64 },
  SHA512: { format: 'sha512', hexLength: 128 },
  SALTED2SHA512: { format: 'salted2sha512', hexLength: 128 },
} as const satisfies Record<string, 'crypt' | { format: ImportedFormat; hexLength: number }>;
type Method = keyof typeof METHODS;

/** The longest SALT the stored `<salt>:<hex>` form keeps (src/accounts/imported-passwords.ts). */
const MAX_SALT_LENGTH = 256;

/** Blessing Skin's permission → our level (contract section 17): banned, player, admin, owner. */
const PERMISSION_LEVELS: Record<number, number> = { [-1]: -1, 0: 0, 1: 2, 2: 3 };

/**
 * Checks --password-method and --salt before anything is opened (called by checkOptions): the method must be one of
 * Blessing Skin's (in any letter case: PHP resolves the class name so), and the SALTED2* methods need the SALT
 * (`--salt ''` for a site whose .env has none). Returns the method.
 */
export function checkBlessingSkinOptions(options: Pick<ImportOptions, 'passwordMethod' | 'salt'>): Method {
  const given = options.passwordMethod ?? 'BCRYPT';
  const method = given.toUpperCase();
  if (!Object.hasOwn(METHODS, method))
    throw new ImportOptionError(
      `--password-method "${given}" is not a Blessing Skin PWD_METHOD: one of ${Object.keys(METHODS).join(', ')} (the PWD_METHOD line of its .env)`,
    );
  if (method.startsWith('SALTED2') && options.salt === undefined)
    throw new ImportOptionError(
      `--password-method ${method} needs --salt: the SALT line of Blessing Skin's .env (--salt '' when it has none)`,
    );
  if (options.salt !== undefined && options.salt.length > MAX_SALT_LENGTH)
    throw new ImportOptionError(`--salt is longer than ${MAX_SALT_LENGTH} characters`);
  return method as Method;
}

/** The stored password for a Blessing Skin hash, or null when it does not look like what `method` writes. */
export function blessingSkinPassword(method: Method, salt: string, hash: string): string | null {
  const kind = METHODS[method];
  // password_verify, which BCRYPT, ARGON2I and PHP_PASSWORD_HASH all check with, reads the algorithm off the hash.
  if (kind === 'crypt') return modularCryptHash(hash);
  // PHP's hash() writes lowercase hex, compared exactly (hash_equals): anything else never matched there either.
  if (hash.length !== kind.hexLength || !/^[0-9a-f]+$/.test(hash)) return null;
  return taggedHash(kind.format, kind.format.startsWith('salted2') ? `${salt}:${hash}` : hash);
}

interface UserRow {
  uid: number | string;
  email: string | null;
  password: string | null;
  permission: number | string | null;
  register_at: string | Date | null;
}

interface PlayerRow {
  pid: number | string;
  uid: number | string;
  name: string;
  tid_skin: number | string | null;
  tid_cape: number | string | null;
}

interface TextureRow {
  tid: number | string;
  name: string | null;
  type: string;
  hash: string;
}

interface UuidRow {
  id: number | string;
  pid?: number | string | null;
  name: string;
  uuid: string;
}

export function blessingSkinReader(source: SourceDb, options: ImportOptions): SourceReader {
  const method = checkBlessingSkinOptions(options);
  const salt = options.salt ?? '';
  const file = fileReader(options.textures);
  const textureFile = (hash: string) => file(hash);
  return {
    async capes() {
      // Every cape texture: the ones in a closet or worn are owned by those accounts; the writer makes only those.
      await checkTables(source);
      const rows = await source.rows<TextureRow>("SELECT tid, name, type, hash FROM textures WHERE type = 'cape'");
      return new Map<string, ImportedCape>(
        rows.map((row) => [String(row.tid), { key: String(row.tid), name: row.name ?? '', file: textureFile(row.hash) }]),
      );
    },
    async *accounts() {
      await checkTables(source);
      const shape: Shape = {
        nameColumn: (await source.hasColumn('players', 'name')) ? 'name' : 'player_name',
        tidSkin: await source.hasColumn('players', 'tid_skin'),
        uuidTable: await source.hasTable('uuid'),
        uuidPid: (await source.hasTable('uuid')) && (await source.hasColumn('uuid', 'pid')),
      };
      let after = -1;
      for (;;) {
        const users = await source.rows<UserRow>(
          'SELECT uid, email, password, permission, register_at FROM users WHERE uid > ? ORDER BY uid LIMIT ?',
          [after, BATCH_SIZE],
        );
        if (users.length === 0) return;
        after = Number(users.at(-1)!.uid);
        yield await batchOf(source, shape, users, (hash) => blessingSkinPassword(method, salt, hash), textureFile);
      }
    },
  };
}

/** Stops an import from a database that is not Blessing Skin's before anything is written. */
async function checkTables(source: SourceDb): Promise<void> {
  for (const table of ['users', 'players', 'textures', 'user_closet'])
    if (!(await source.hasTable(table)))
      throw new SourceError(
        `--from: the database has no Blessing Skin table "${table}" (give the DB_DATABASE of its .env; a DB_PREFIX is not supported)`,
      );
}

interface Shape {
  /** `name`, or `player_name` on an install older than the 2019-03-13 migration. */
  nameColumn: string;
  /** Whether `players.tid_skin` exists (added 2019-03-01; before it a player wore no skin chosen this way). */
  tidSkin: boolean;
  uuidTable: boolean;
  uuidPid: boolean;
}

async function batchOf(
  source: SourceDb,
  shape: Shape,
  users: UserRow[],
  password: (hash: string) => string | null,
  textureFile: (hash: string) => ImportedSkin['file'],
): Promise<{ accounts: ImportedAccount[]; leftOut: LeftOut[] }> {
  const q = source.quote;
  const inUsers = idList(users.map((user) => Number(user.uid)));
  const players = await source.rows<PlayerRow>(
    `SELECT pid, uid, ${q(shape.nameColumn)} AS name, ${shape.tidSkin ? 'tid_skin' : '0 AS tid_skin'}, tid_cape
     FROM players WHERE uid IN (${inUsers}) ORDER BY pid`,
  );
  const closet = await source.rows<{ user_uid: number | string; texture_tid: number | string; item_name: string | null }>(
    `SELECT user_uid, texture_tid, item_name FROM user_closet WHERE user_uid IN (${inUsers})`,
  );
  const tids = new Set<number>(closet.map((item) => Number(item.texture_tid)));
  for (const player of players) for (const tid of [player.tid_skin, player.tid_cape]) if (Number(tid) > 0) tids.add(Number(tid));
  const textures = new Map(
    (await source.rows<TextureRow>(`SELECT tid, name, type, hash FROM textures WHERE tid IN (${idList([...tids])})`)).map((row) => [
      Number(row.tid),
      row,
    ]),
  );
  const uuids = await uuidRows(source, shape, players);

  const accounts: ImportedAccount[] = [];
  const leftOut: LeftOut[] = [];
  for (const user of users) {
    const uid = Number(user.uid);
    const own = players.filter((player) => Number(player.uid) === uid);
    const label = own[0]?.name ?? user.email ?? `#${uid}`;
    const stored = user.password ? password(user.password) : null;
    if (!stored)
      leftOut.push({
        kind: 'password',
        source_id: String(uid),
        name: label,
        reason: 'the password hash does not look like what --password-method writes',
      });

    // The wardrobe is the closet: its skins (named by the closet item, slim when the texture is `alex`) and capes.
    const skins = new Map<string, ImportedSkin>();
    const capes = new Set<string>();
    const collect = (tid: number, itemName: string | null, wornAs?: 'skin' | 'cape') => {
      const texture = textures.get(tid);
      if (!texture) return;
      const key = String(tid);
      const isCape = texture.type === 'cape';
      if (wornAs && wornAs !== (isCape ? 'cape' : 'skin')) return;
      if (isCape) capes.add(key);
      else if ((texture.type === 'steve' || texture.type === 'alex') && !skins.has(key))
        skins.set(key, { key, name: itemName || texture.name || 'Skin', slim: texture.type === 'alex', file: textureFile(texture.hash) });
    };
    for (const item of closet) if (Number(item.user_uid) === uid) collect(Number(item.texture_tid), item.item_name);
    // A player wearing what the closet no longer holds (Blessing Skin served it all the same, from before its closet
    // reset worn items): the texture joins the wardrobe under its own name, so the game shows what it showed.
    for (const player of own) {
      collect(Number(player.tid_skin), null, 'skin');
      collect(Number(player.tid_cape), null, 'cape');
    }

    const profiles: ImportedProfile[] = own.map((player) => {
      const skin = String(player.tid_skin);
      const cape = String(player.tid_cape);
      return {
        uuid: uuidOf(shape, uuids, player),
        name: player.name,
        skinKey: skins.has(skin) ? skin : null,
        capeKey: capes.has(cape) ? cape : null,
      };
    });
    accounts.push({
      key: String(uid),
      label,
      mail: user.email?.trim() || null,
      // Blessing Skin lets an unverified account play: it comes in verified (contract section 17).
      verified: true,
      level: PERMISSION_LEVELS[Number(user.permission)] ?? 0,
      password: stored ?? unusablePassword('unknown format'),
      createdAt: registeredAt(user.register_at),
      profiles,
      skins: [...skins.values()],
      capes: [...capes],
    });
  }
  return { accounts, leftOut };
}

/** The batch's rows of the Yggdrasil plugin's `uuid` table: by pid (yggdrasil-connect) and by name. */
async function uuidRows(source: SourceDb, shape: Shape, players: PlayerRow[]): Promise<UuidRow[]> {
  if (!shape.uuidTable || players.length === 0) return [];
  const names = [...new Set(players.map((player) => player.name.toLowerCase()))];
  const byName = `LOWER(name) IN (${names.map(() => '?').join(', ')})`;
  const where = shape.uuidPid ? `(pid IN (${idList(players.map((player) => Number(player.pid)))}) OR ${byName})` : byName;
  return source.rows<UuidRow>(`SELECT id, ${shape.uuidPid ? 'pid, ' : ''}name, uuid FROM uuid WHERE ${where} ORDER BY id`, names);
}

/**
 * A player's UUID: its `uuid` row (by pid where yggdrasil-connect keeps one, else by name in any letter case, the
 * earliest row as the plugin's lookup finds it), else the offline UUID of the name (the plugin's default `v3`).
 */
function uuidOf(shape: Shape, rows: UuidRow[], player: PlayerRow): string {
  const byPid = shape.uuidPid ? rows.find((row) => row.pid != null && Number(row.pid) === Number(player.pid)) : undefined;
  const byName = rows.find((row) => (!shape.uuidPid || row.pid == null) && row.name.toLowerCase() === player.name.toLowerCase());
  return normalizeUuid(String((byPid ?? byName)?.uuid ?? '')) ?? offlinePlayerUuid(player.name);
}

/**
 * `register_at` in Unix milliseconds: a DATETIME in Blessing Skin's timezone, Asia/Shanghai (config/app.php; UTC+8,
 * without summer time since 1991). A Date (PostgreSQL reads such a column in the local timezone) is read back alike.
 */
function registeredAt(value: string | Date | null): number | undefined {
  const SHANGHAI = 8 * 3600 * 1000;
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) return undefined;
    const wall = Date.UTC(value.getFullYear(), value.getMonth(), value.getDate(), value.getHours(), value.getMinutes(), value.getSeconds());
    return wall - SHANGHAI;
  }
  const match = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})/.exec(value ?? '');
  if (!match || match[1] === '0000') return undefined;
  const [year, month, day, hour, minute, second] = match.slice(1).map(Number) as [number, number, number, number, number, number];
  return Date.UTC(year, month - 1, day, hour, minute, second) - SHANGHAI;
}
