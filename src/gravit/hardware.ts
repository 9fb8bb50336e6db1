// Hardware ids (contract section 10): what a LaunchServer's advanced protect handler reports of a player's machine,
// kept in GravitLauncher's own `hwids` table (and each public key it was given in `hwidlog`), so that the records are
// the same whether the LaunchServer comes through this API or reads the tables with its sql core. Players are linked
// to hardware in `hardware_users`; the sql core's own link, users.hwid_id, counts too when listing a machine's
// players. Every change is written to the audit log in the same transaction, whoever makes it.
import { permsAt } from '../accounts/standing.ts';
import type { Kysely } from 'kysely';
import { type Acting, serviceActing } from '../audit/acting.ts';
import { recordAudit } from '../audit/audit.ts';
import type { AuditAction } from '../shared/audit-actions.ts';
import type { Clock } from '../clock.ts';
import { isUniqueViolation } from '../database/dialect.ts';
import type { Database, Executor, GravitFlag, HwidsTable } from '../database/schema.ts';
import { conflict } from '../http/envelope.ts';
import type { PageQuery } from '../http/pagination.ts';
import { type HardwareFacts, MATCH_LEVEL, matchLevel } from './hardware-match.ts';
import type { HardwareInfo, HardwareRecord, UserHardware } from './shapes.ts';

/** The admin list's query: a page, and optionally only the hardware one player (a user id) used. */
export interface HardwareQuery extends PageQuery {
  user?: number;
}

/** Who the LaunchServer's calls are recorded as in the audit log. */
export const LAUNCHSERVER: Acting = serviceActing('launchserver');

/** How many rows sharing an identifier getbydata weighs at most. */
const MAX_CANDIDATES = 100;

export interface StoredHardware {
  id: number;
  publicKey: Buffer | null;
  facts: HardwareFacts;
  banned: boolean;
}

type HardwareRow = { id: number } & Omit<HwidsTable, 'id'>;

const isSet = (flag: GravitFlag) => flag === true || flag === 1;
/** Blank identifiers say nothing (GravitLauncher trims them before comparing). */
const identifier = (value: string | null) => (value === null || value.trim() === '' ? null : value.trim());

function storedOf(row: HardwareRow): StoredHardware {
  return {
    id: row.id,
    publicKey: row.publickey,
    banned: isSet(row.banned),
    facts: {
      bitness: row.bitness ?? 0,
      totalMemory: row.totalmemory ?? 0,
      logicalProcessors: row.logicalprocessors ?? 0,
      physicalProcessors: row.physicalprocessors ?? 0,
      processorMaxFreq: row.processormaxfreq ?? 0,
      battery: isSet(row.battery),
      hwDiskId: identifier(row.hwdiskid),
      baseboardSerialNumber: identifier(row.baseboardserialnumber),
      graphicCard: row.graphiccard,
      displayId: row.displayid,
    },
  };
}

/** The report as the API carries it, byte fields in URL-safe base64. */
export function hardwareInfoOf(facts: HardwareFacts): HardwareInfo {
  return { ...facts, displayId: facts.displayId?.toString('base64url') ?? null };
}

/** The report from the API, normalised as GravitLauncher does before comparing (identifiers trimmed). */
export function factsOf(info: Partial<HardwareInfo>): HardwareFacts {
  return {
    bitness: info.bitness ?? 0,
    totalMemory: info.totalMemory ?? 0,
    logicalProcessors: info.logicalProcessors ?? 0,
    physicalProcessors: info.physicalProcessors ?? 0,
    processorMaxFreq: info.processorMaxFreq ?? 0,
    battery: info.battery ?? false,
    hwDiskId: identifier(info.hwDiskId ?? null),
    baseboardSerialNumber: identifier(info.baseboardSerialNumber ?? null),
    graphicCard: info.graphicCard ?? null,
    displayId: info.displayId ? Buffer.from(info.displayId, 'base64url') : null,
  };
}

export function userHardwareOf(hardware: StoredHardware): UserHardware {
  return {
    id: String(hardware.id),
    publicKey: hardware.publicKey?.toString('base64url') ?? null,
    hardwareInfo: hardwareInfoOf(hardware.facts),
    banned: hardware.banned,
  };
}

const KEY_TAKEN = 'gravit.keyTaken';

export class HardwareStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
  ) {}

  async byId(id: number): Promise<StoredHardware | null> {
    const row = await this.db.selectFrom('hwids').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? storedOf(row) : null;
  }

  async byPublicKey(publicKey: Buffer): Promise<StoredHardware | null> {
    const row = await this.db.selectFrom('hwids').selectAll().where('publickey', '=', publicKey).executeTakeFirst();
    return row ? storedOf(row) : null;
  }

  /**
   * The record of the same machine: of the rows sharing the disk id, the baseboard serial or the display id with the
   * report, the one that agrees most, when it agrees at least MATCH_LEVEL (GravitLauncher's weighting).
   */
  async byData(facts: HardwareFacts): Promise<StoredHardware | null> {
    const { hwDiskId, baseboardSerialNumber, displayId } = facts;
    if (hwDiskId === null && baseboardSerialNumber === null && displayId === null) return null;
    const rows = await this.db
      .selectFrom('hwids')
      .selectAll()
      .where((eb) =>
        eb.or([
          ...(hwDiskId !== null ? [eb('hwdiskid', '=', hwDiskId)] : []),
          ...(baseboardSerialNumber !== null ? [eb('baseboardserialnumber', '=', baseboardSerialNumber)] : []),
          ...(displayId !== null ? [eb('displayid', '=', displayId)] : []),
        ]),
      )
      .orderBy('id')
      .limit(MAX_CANDIDATES)
      .execute();
    let best: { hardware: StoredHardware; level: number } | null = null;
    for (const row of rows) {
      const hardware = storedOf(row);
      const level = matchLevel(hardware.facts, facts);
      if (level >= MATCH_LEVEL && (best === null || level > best.level)) best = { hardware, level };
    }
    return best?.hardware ?? null;
  }

  /** A new record, its public key logged in hwidlog as the sql core does; 409 when the key is another record's. */
  async create(acting: Acting, facts: HardwareFacts, publicKey: Buffer): Promise<StoredHardware> {
    return this.keyUnique(() =>
      this.db.transaction().execute(async (trx) => {
        const row = await trx
          .insertInto('hwids')
          .values({
            publickey: publicKey,
            hwdiskid: facts.hwDiskId,
            baseboardserialnumber: facts.baseboardSerialNumber,
            graphiccard: facts.graphicCard,
            displayid: facts.displayId,
            bitness: facts.bitness,
            totalmemory: facts.totalMemory,
            logicalprocessors: facts.logicalProcessors,
            physicalprocessors: facts.physicalProcessors,
            processormaxfreq: facts.processorMaxFreq,
            // 0/1 for both databases: PostgreSQL reads '1' and '0' as booleans.
            battery: facts.battery ? 1 : 0,
            banned: 0,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        await trx.insertInto('hwidlog').values({ hwidid: row.id, newpublickey: publicKey }).execute();
        await this.audit(trx, acting, 'hardware.create', row.id);
        return storedOf(row);
      }),
    );
  }

  /** The launcher of this hardware now holds `publicKey` (logged in hwidlog); false when there is no such record. */
  async addPublicKey(acting: Acting, hardwareId: number, publicKey: Buffer): Promise<boolean> {
    return this.keyUnique(() =>
      this.db.transaction().execute(async (trx) => {
        const updated = await trx.updateTable('hwids').set({ publickey: publicKey }).where('id', '=', hardwareId).executeTakeFirst();
        if (Number(updated.numUpdatedRows) === 0) return false;
        await trx.insertInto('hwidlog').values({ hwidid: hardwareId, newpublickey: publicKey }).execute();
        await this.audit(trx, acting, 'hardware.add_public_key', hardwareId);
        return true;
      }),
    );
  }

  /**
   * Links the player to the hardware. A link made before only gets its time renewed, without an audit entry: the
   * LaunchServer connects at every launcher start, and the log would fill with repeats.
   */
  async connect(acting: Acting, hardwareId: number, userId: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const now = this.clock.now();
      const renewed = await trx
        .updateTable('hardware_users')
        .set({ connected_at: now })
        .where('hardware_id', '=', hardwareId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      if (Number(renewed.numUpdatedRows) > 0) return;
      // Two first connects at the same moment: the second finds the link made and changes nothing.
      const inserted = await trx
        .insertInto('hardware_users')
        .values({ hardware_id: hardwareId, user_id: userId, connected_at: now })
        .onConflict((conflict) => conflict.columns(['hardware_id', 'user_id']).doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0) await this.audit(trx, acting, 'hardware.connect', hardwareId, userId);
    });
  }

  /** Bans or unbans the hardware; false when there is no such record. */
  async setBanned(acting: Acting, hardwareId: number, banned: boolean): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const updated = await trx
        .updateTable('hwids')
        .set({ banned: banned ? 1 : 0 })
        .where('id', '=', hardwareId)
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) === 0) return false;
      await this.audit(trx, acting, banned ? 'hardware.ban' : 'hardware.unban', hardwareId);
      return true;
    });
  }

  /** The ids of the players who used the hardware, through this API or the sql core, in id order. */
  async userIds(hardwareId: number): Promise<number[]> {
    const rows = await this.usersOf(hardwareId).select('id').orderBy('id').execute();
    return rows.map((row) => row.id);
  }

  /** The highest perms among the players who used the hardware (a ban of it reaches them all); null when none did. */
  async highestPerms(hardwareId: number): Promise<number | null> {
    const { highest } = await this.usersOf(hardwareId)
      .select((eb) => eb.fn.max<number | null>(permsAt(this.clock.now())).as('highest'))
      .executeTakeFirstOrThrow();
    return highest === null ? null : Number(highest);
  }

  private usersOf(hardwareId: number) {
    return this.db
      .selectFrom('users')
      .where((eb) =>
        eb.or([
          eb('hwid_id', '=', String(hardwareId)),
          eb('id', 'in', eb.selectFrom('hardware_users').select('user_id').where('hardware_id', '=', hardwareId)),
        ]),
      );
  }

  /** One page of the hardware records (only those `user` used, when given), newest first, with their players. */
  /** How many hardware ids are recorded. */
  async count(): Promise<number> {
    const { total } = await this.db
      .selectFrom('hwids')
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .executeTakeFirstOrThrow();
    return Number(total);
  }

  async list(query: HardwareQuery): Promise<{ records: HardwareRecord[]; total: number }> {
    const { user } = query;
    const all = this.db.selectFrom('hwids');
    // One IN over the union of the player's links either way: the index of hardware_users by user and the users
    // primary key give the ids, the hwids primary key the rows (an OR of two INs would scan every hwids row).
    const records =
      user === undefined
        ? all
        : all.where((eb) =>
            eb(
              'hwids.id',
              'in',
              eb
                .selectFrom('hardware_users')
                .select('hardware_users.hardware_id as id')
                .where('hardware_users.user_id', '=', user)
                // hwid_id is text on SQLite, which compares it with the integer id as a number (the column's affinity).
                .union(eb.selectFrom('users').select('users.hwid_id as id').where('users.id', '=', user).$castTo<{ id: number }>()),
            ),
          );
    const [rows, { total }] = await Promise.all([
      records.selectAll().orderBy('id', 'desc').limit(query.limit).offset(query.offset).execute(),
      records.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    ]);
    return { records: await this.withPlayers(rows), total: Number(total) };
  }

  /** One hardware record with its players, or null. */
  async record(hardwareId: number): Promise<HardwareRecord | null> {
    const row = await this.db.selectFrom('hwids').selectAll().where('id', '=', hardwareId).executeTakeFirst();
    return row ? (await this.withPlayers([row]))[0]! : null;
  }

  /** The records of `rows`, each with the players linked to it either way, found in one query. */
  private async withPlayers(rows: HardwareRow[]): Promise<HardwareRecord[]> {
    const ids = rows.map((row) => row.id);
    const players =
      ids.length === 0
        ? []
        : await this.db
            .selectFrom('users')
            .leftJoin('hardware_users', 'hardware_users.user_id', 'users.id')
            .select(['users.id', 'users.username', 'users.uuid', 'users.hwid_id', 'hardware_users.hardware_id'])
            .where((eb) => eb.or([eb('users.hwid_id', 'in', ids.map(String)), eb('hardware_users.hardware_id', 'in', ids)]))
            .orderBy('users.id')
            .execute();
    return rows.map((row): HardwareRecord => {
      const users = new Map<number, HardwareRecord['users'][number]>();
      for (const player of players) {
        if (player.hardware_id !== row.id && Number(player.hwid_id) !== row.id) continue;
        users.set(player.id, { id: player.id, username: player.username ?? '', uuid: player.uuid ?? '' });
      }
      return { ...userHardwareOf(storedOf(row)), users: [...users.values()] };
    });
  }

  private async keyUnique<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict(KEY_TAKEN);
      throw error;
    }
  }

  private async audit(
    db: Executor,
    acting: Acting,
    action: Extract<AuditAction, `hardware.${string}`>,
    hardwareId: number,
    userId: number | null = null,
  ) {
    await recordAudit(db, this.clock.now(), { actor: acting.actor, action, target: userId, details: { hardware: hardwareId } });
  }
}
