// CookieCMS (Cookie-cms/cookiecms-js, migrations/cookiecms.init.js and perms.js): `users` with the player's name and
// UUID, `skins_library` (the wardrobe; `cloak_id` is the cape shown with a skin, '0' none), `skin_user` (the skin worn),
// `cloaks_lib` and `cloaks_users` (capes and who has them), `discord`, `hwids`. Files: DIR/skins/{uuid}.png,
// DIR/capes/{uuid}.png. Its groups 0 Guest, 1 User, 2 Premium, 3 Moderator, 4 Admin, 5 Owner map to our levels.
import { join } from 'node:path';
import { offlinePlayerUuid } from '../../minecraft/offline-uuid.ts';
import { normalizeUuid } from '../../accounts/identifiers.ts';
import type { ImportedAccount, ImportedCape, ImportedHardware, LeftOut, SourceReader } from '../model.ts';
import { modularCryptHash, unusablePassword } from '../passwords.ts';
import { BATCH_SIZE, type ImportOptions } from '../options.ts';
import type { SourceDb } from '../source-db.ts';
import { fileReader, idList } from './files.ts';

/** CookieCMS group → our level (contract section 17). */
const GROUP_LEVELS: Record<number, number> = { 0: 0, 1: 0, 2: 0, 3: 1, 4: 2, 5: 3 };

interface UserRow {
  id: number;
  username: string | null;
  dsid: string | null;
  mail: string | null;
  mail_verify: number | null;
  uuid: string | null;
  password: string | null;
  hwidId: string | number | null;
  permission_group_id?: number | null;
}

export function cookieCmsReader(source: SourceDb, options: ImportOptions): SourceReader {
  const file = fileReader(options.textures);
  return {
    async capes() {
      const rows = await source.rows<{ uuid: string; name: string }>('SELECT uuid, name FROM cloaks_lib');
      return new Map<string, ImportedCape>(
        rows.map((row) => [row.uuid, { key: row.uuid, name: row.name, file: file(join('capes', `${row.uuid}.png`)) }]),
      );
    },
    async *accounts() {
      const groups = await source.hasColumn('users', 'permission_group_id');
      const q = source.quote;
      const columns = `id, username, dsid, mail, mail_verify, uuid, password, ${q('hwidId')}${groups ? ', permission_group_id' : ''}`;
      let after = -1;
      for (;;) {
        const users = await source.rows<UserRow>(`SELECT ${columns} FROM users WHERE id > ? ORDER BY id LIMIT ?`, [after, BATCH_SIZE]);
        if (users.length === 0) return;
        after = Number(users.at(-1)!.id);
        yield await batchOf(source, users, file);
      }
    },
  };
}

async function batchOf(source: SourceDb, users: UserRow[], file: ReturnType<typeof fileReader>) {
  const ids = users.map((user) => Number(user.id));
  const inIds = idList(ids);
  const skins = await source.rows<{
    uuid: string;
    name: string;
    ownerid: number;
    slim: number | boolean;
    disabled: number | boolean;
    cloak_id: string;
  }>(`SELECT uuid, name, ownerid, slim, disabled, cloak_id FROM skins_library WHERE ownerid IN (${inIds}) ORDER BY uuid`);
  const worn = await source.rows<{ uid: number; skin_id: string }>(`SELECT uid, skin_id FROM skin_user WHERE uid IN (${inIds})`);
  const capes = await source.rows<{ uid: number; cloak_id: string }>(`SELECT uid, cloak_id FROM cloaks_users WHERE uid IN (${inIds})`);
  const dsids = users.map((user) => user.dsid).filter((id): id is string => !!id && /^\d{1,20}$/.test(String(id)));
  const discord =
    dsids.length === 0
      ? []
      : await source.rows<{ userid: string; avatar_cache: string; name_gb: string }>(
          `SELECT userid, avatar_cache, name_gb FROM discord WHERE userid IN (${dsids.map(String).join(', ')})`,
        );
  const hwidIds = users.map((user) => user.hwidId).filter((id) => id !== null && /^\d+$/.test(String(id)));
  const hardware =
    hwidIds.length === 0 ? [] : await source.rows<Record<string, unknown>>(`SELECT * FROM hwids WHERE id IN (${hwidIds.join(', ')})`);

  const accounts: ImportedAccount[] = [];
  const leftOut: LeftOut[] = [];
  for (const user of users) {
    const id = Number(user.id);
    const label = user.username ?? user.mail ?? `#${id}`;
    const password = user.password ? modularCryptHash(user.password) : null;
    if (!password)
      leftOut.push({ kind: 'password', source_id: String(id), name: label, reason: 'a password format CookieCMS does not write' });
    const uuid = user.username ? (normalizeUuid(user.uuid ?? '') ?? offlinePlayerUuid(user.username)) : null;
    const own = skins.filter((skin) => Number(skin.ownerid) === id);
    const usable = own.filter((skin) => {
      if (!Number(skin.disabled)) return true;
      leftOut.push({ kind: 'skin', source_id: skin.uuid, name: `${label}: ${skin.name}`, reason: 'disabled in CookieCMS' });
      return false;
    });
    const wornSkin = worn.find((row) => Number(row.uid) === id)?.skin_id ?? null;
    const link = discord.find((row) => String(row.userid) === String(user.dsid));
    const machine = hardware.find((row) => String(row.id) === String(user.hwidId));
    accounts.push({
      key: String(id),
      label,
      mail: user.mail?.trim() || null,
      verified: Number(user.mail_verify) === 1,
      level: user.permission_group_id == null ? 0 : (GROUP_LEVELS[Number(user.permission_group_id)] ?? 0),
      password: password ?? unusablePassword('unknown format'),
      profiles:
        user.username && uuid
          ? [{ uuid, name: user.username, skinKey: usable.some((skin) => skin.uuid === wornSkin) ? wornSkin : null }]
          : [],
      skins: usable.map((skin) => ({
        key: skin.uuid,
        name: skin.name,
        slim: Boolean(Number(skin.slim)),
        file: file(join('skins', `${skin.uuid}.png`)),
        capeKey: skin.cloak_id && skin.cloak_id !== '0' ? skin.cloak_id : null,
      })),
      capes: capes.filter((row) => Number(row.uid) === id).map((row) => row.cloak_id),
      discord: link ? { id: String(link.userid), username: link.name_gb, avatar: link.avatar_cache } : null,
      hardware: machine ? hardwareOf(machine) : null,
    });
  }
  return { accounts, leftOut };
}

/**
 * A launcher's key or display id as bytes: CookieCMS's first schema keeps them in binary columns (MySQL `blob`,
 * PostgreSQL `bytea`), read as the bytes they are; its current one in strings holding base64 (as its LaunchServer
 * endpoints receive them), decoded. Anything else (text that is no base64) is no key: null.
 */
function launcherBytes(value: unknown): Buffer | null {
  if (value instanceof Uint8Array) return value.length > 0 ? Buffer.from(value) : null;
  if (typeof value !== 'string') return null;
  const text = value.trim();
  return text !== '' && BASE64.test(text) ? Buffer.from(text, 'base64') : null;
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{2,3})?$/;

/** CookieCMS's `hwids` row in our columns; the key and display id are bytes, as GravitLauncher sends them. */
function hardwareOf(row: Record<string, unknown>): ImportedHardware {
  const bytes = launcherBytes;
  const text = (value: unknown) => (value === null || value === undefined ? null : String(value));
  const number = (value: unknown) => (value === null || value === undefined ? null : Number(value));
  const flag = (value: unknown) => (value === null || value === undefined ? null : Boolean(Number(value)));
  return {
    key: String(row.id),
    publickey: bytes(row.publickey),
    hwdiskid: text(row.hwDiskId),
    baseboardserialnumber: text(row.baseboardSerialNumber),
    graphiccard: text(row.graphicCard),
    displayid: bytes(row.displayId),
    bitness: number(row.bitness),
    totalmemory: number(row.totalMemory),
    logicalprocessors: number(row.logicalProcessors),
    physicalprocessors: number(row.physicalProcessors),
    processormaxfreq: number(row.processorMaxFreq),
    battery: flag(row.battery),
    banned: flag(row.banned),
  };
}
