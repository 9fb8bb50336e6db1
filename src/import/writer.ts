// Writes imported accounts (contract section 17): each one whole or not at all, in one transaction with its
// profiles, wardrobe, capes, Discord link and hardware; never over an account here (a taken name or mail leaves the
// source account out); remembered in import_map, so that running the import again adds only what is new. A dry run
// does the same work in transactions it rolls back, and writes no texture file.
import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import { beyondBounds } from '../accounts/imported-passwords.ts';
import { mailKey } from '../accounts/rules.ts';
import type { AuditActor } from '../audit/audit.ts';
import type { Clock } from '../clock.ts';
import { isRowRefusal, isUniqueViolation } from '../database/dialect.ts';
import type { Database, Executor } from '../database/schema.ts';
import { ApiError } from '../http/envelope.ts';
import { playerNameKey, type PlayerNameRule } from '../minecraft/player-names.ts';
import { insertProfile, setWorn, usernameColumns } from '../accounts/profile-rows.ts';
import { canonicalTexture, type CanonicalTexture } from '../textures/canonical.ts';
import type { TextureLibrary } from '../textures/library.ts';
import { COUNTED, type Counted, type ImportedAccount, type ImportedCape, type ImportedProfile, type LeftOut } from './model.ts';
import { unusablePassword } from './passwords.ts';
import { checkAccount, hasControlCharacters } from './rules.ts';

export interface ImportReport {
  source: string;
  dry_run: boolean;
  counts: Record<Counted, { imported: number; already: number; left_out: number }>;
  left_out: LeftOut[];
}

export function emptyReport(source: string, dryRun: boolean): ImportReport {
  const counts = Object.fromEntries(COUNTED.map((kind) => [kind, { imported: 0, already: 0, left_out: 0 }])) as ImportReport['counts'];
  return { source, dry_run: dryRun, counts, left_out: [] };
}

/** The key an account without a mail address holds in `mail_key`: unique, and no mail lookup ever matches it. */
export const noMailKey = (accountKey: string, source: string) => `no-mail:${source}:${accountKey}`;

const NAME_LENGTH = 64;

interface DecodedSkin {
  key: string;
  name: string;
  slim: boolean;
  texture: CanonicalTexture;
  capeKey: string | null;
}

/** Where an import writes, and with which of the service's settings. */
export interface ImportTarget {
  db: Kysely<Database>;
  clock: Clock;
  library: TextureLibrary;
  maxSkinWidth: number;
  /** MAX_TEXTURE_BYTES: a larger file is refused as an upload would be. */
  maxTextureBytes: number;
  nameRule: PlayerNameRule;
  /** Who the audit log names for the run. */
  actor: AuditActor;
}

export type ImportWriterDeps = Omit<ImportTarget, 'actor'> & {
  /** The source's name in import_map. */
  source: string;
  dryRun: boolean;
  capes: Map<string, ImportedCape>;
  report: ImportReport;
};

export class ImportWriter {
  /** Capes made (or found made by an earlier run), by source key; null: left out. */
  private readonly capeIds = new Map<string, number | null>();
  private readonly decodedCapes = new Map<string, CanonicalTexture | null>();
  /** In a dry run nothing stays written: names and capes seen so far stand in for the rows. */
  private readonly dryNames = new Set<string>();
  private readonly dryCapes = new Set<string>();

  constructor(private readonly deps: ImportWriterDeps) {}

  private leaveOut(entry: LeftOut, counted?: Counted) {
    this.deps.report.left_out.push(entry);
    if (counted) this.deps.report.counts[counted].left_out += 1;
  }

  async write(source: ImportedAccount): Promise<void> {
    const { db, report } = this.deps;
    const known = await this.mapped(db, 'account', source.key);
    if (known !== undefined) {
      report.counts.accounts.already += 1;
      report.counts.profiles.already += source.profiles.length;
      report.counts.skins.already += source.skins.length;
      // Its capes (each once a run, shared as they are) and its machine were brought by that run too.
      for (const key of new Set(source.capes)) {
        if (this.capeIds.has(key)) continue;
        const earlier = await this.mapped(db, 'cape', key);
        if (earlier === undefined) continue;
        this.capeIds.set(key, earlier);
        report.counts.capes.already += 1;
      }
      if (source.hardware && (await this.mapped(db, 'hardware', source.hardware.key)) !== undefined) report.counts.hardware.already += 1;
      return;
    }
    const checked = checkAccount(source, this.deps.nameRule);
    for (const [entry, counted] of checked.leftOut) this.leaveOut(entry, counted);
    const account = checked.account;
    if (!account) {
      this.leaveOut({ kind: 'account', source_id: source.key, name: source.label, reason: checked.refusal! }, 'accounts');
      return;
    }
    const refusal = await this.conflict(account);
    if (refusal) {
      this.leaveOut({ kind: 'account', source_id: account.key, name: account.label, reason: refusal }, 'accounts');
      return;
    }
    const { profiles } = account;
    const skins = await this.decodeSkins(account);
    const capeTextures = await this.capesToMake(account);
    // A hash that asks for more work than a login may cost (contract 15b) comes in unusable: the player resets it.
    const tooCostly = beyondBounds(account.password);
    const password = tooCostly === null ? account.password : unusablePassword(tooCostly);
    try {
      const made = await this.inTransaction([...skins.map((skin) => skin.texture), ...capeTextures.values()], (trx) =>
        this.insert(trx, { ...account, password }, profiles, skins, capeTextures),
      );
      if (!this.deps.dryRun) for (const [key, id] of made.capes) this.capeIds.set(key, id);
      report.counts.capes.imported += made.capes.size;
      if (made.hardware) report.counts.hardware[made.hardware] += 1;
    } catch (error) {
      // What this account held (a taken name, a value the database refuses) leaves it out; the run goes on. A broken
      // connection stops the run, which can be run again.
      if (!isRowRefusal(error)) throw error;
      const reason = isUniqueViolation(error)
        ? 'a name, mail address or Discord account is taken here'
        : `the database refused it (${(error as Error).message.split('\n')[0]!.slice(0, 200)})`;
      this.leaveOut({ kind: 'account', source_id: account.key, name: account.label, reason }, 'accounts');
      return;
    }
    if (this.deps.dryRun) for (const profile of profiles) this.dryNames.add(playerNameKey(profile.name));
    if (tooCostly !== null)
      this.leaveOut({
        kind: 'password',
        source_id: account.key,
        name: account.label,
        reason: `the stored hash asks for more work than a login may cost (${tooCostly}): the player resets the password`,
      });
    report.counts.accounts.imported += 1;
    report.counts.profiles.imported += profiles.length;
    report.counts.skins.imported += skins.length;
  }

  /** What a source row became here in an earlier run (or earlier in this one), by kind and source id. */
  private async mapped(db: Executor, kind: 'account' | 'cape' | 'hardware', sourceId: string): Promise<number | undefined> {
    const row = await db
      .selectFrom('import_map')
      .select('target_id')
      .where('source', '=', this.deps.source)
      .where('kind', '=', kind)
      .where('source_id', '=', sourceId)
      .executeTakeFirst();
    return row?.target_id;
  }

  /** Why the account cannot come in: its mail or one of its names or UUIDs is another account's here. */
  private async conflict(account: ImportedAccount): Promise<string | null> {
    const { db } = this.deps;
    if (account.mail) {
      const holder = await db.selectFrom('users').select('id').where('mail_key', '=', mailKey(account.mail)).executeTakeFirst();
      if (holder) return `the mail address ${account.mail} has an account here`;
    }
    for (const profile of account.profiles) {
      const key = playerNameKey(profile.name);
      const taken = await db
        .selectFrom('profiles')
        .select(['name', 'uuid'])
        .where((eb) => eb.or([eb('name_key', '=', key), eb('uuid', '=', profile.uuid)]))
        .executeTakeFirst();
      if (taken || this.dryNames.has(key))
        return taken?.uuid === profile.uuid ? `the UUID ${profile.uuid} is taken here` : `the name ${profile.name} is taken here`;
    }
    return null;
  }

  /** Every skin file through the upload checks (sections 7 and 15); a missing or bad one is left out and reported. */
  private async decodeSkins(account: ImportedAccount): Promise<DecodedSkin[]> {
    const decoded: DecodedSkin[] = [];
    for (const skin of account.skins) {
      const texture = await this.decode(await skin.file(), 'skin');
      if (typeof texture === 'string') {
        this.leaveOut({ kind: 'skin', source_id: skin.key, name: `${account.label}: ${skin.name}`, reason: texture }, 'skins');
        continue;
      }
      const name = skin.name.trim().slice(0, NAME_LENGTH) || 'Skin';
      decoded.push({ key: skin.key, name, slim: skin.slim, texture, capeKey: skin.capeKey ?? null });
    }
    return decoded;
  }

  /** The capes this account needs that no earlier account (or run) made; decoded once per run. */
  private async capesToMake(account: ImportedAccount): Promise<Map<string, CanonicalTexture>> {
    const { db, capes, dryRun } = this.deps;
    const needed = new Set([...account.capes, ...account.profiles.map((p) => p.capeKey), ...account.skins.map((s) => s.capeKey)]);
    const toMake = new Map<string, CanonicalTexture>();
    for (const key of needed) {
      if (!key || !account.capes.includes(key) || this.capeIds.has(key) || (dryRun && this.dryCapes.has(key))) continue;
      const earlier = await this.mapped(db, 'cape', key);
      if (earlier !== undefined) {
        this.capeIds.set(key, earlier);
        this.deps.report.counts.capes.already += 1;
        continue;
      }
      if (!this.decodedCapes.has(key)) {
        const cape = capes.get(key);
        const texture = !cape
          ? 'the source has no such cape'
          : hasControlCharacters(cape.name)
            ? 'its name holds control characters'
            : await this.decode(await cape.file(), 'cape');
        if (typeof texture === 'string') {
          this.leaveOut({ kind: 'cape', source_id: key, name: cape?.name ?? key, reason: texture }, 'capes');
          this.capeIds.set(key, null);
          continue;
        }
        this.decodedCapes.set(key, texture);
      }
      toMake.set(key, this.decodedCapes.get(key)!);
    }
    return toMake;
  }

  private async decode(bytes: Buffer | string, kind: 'skin' | 'cape'): Promise<CanonicalTexture | string> {
    if (typeof bytes === 'string') return bytes;
    if (bytes.length > this.deps.maxTextureBytes) return `the file is larger than MAX_TEXTURE_BYTES (${this.deps.maxTextureBytes} bytes)`;
    try {
      return await canonicalTexture(bytes, kind, this.deps.maxSkinWidth);
    } catch (error) {
      if (error instanceof ApiError) return error.message;
      throw error;
    }
  }

  /** Runs `work` with the textures present: for real through the library, in a dry run in a transaction undone. */
  private inTransaction<T>(textures: CanonicalTexture[], work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    const { library, dryRun } = this.deps;
    return dryRun ? library.triedWithTextures(textures, work) : library.withTextures(textures, work);
  }

  private async insert(
    trx: Transaction<Database>,
    account: ImportedAccount,
    profiles: ImportedProfile[],
    skins: DecodedSkin[],
    capeTextures: Map<string, CanonicalTexture>,
  ): Promise<{ capes: Map<string, number>; hardware: 'imported' | 'already' | null }> {
    const { source, clock } = this.deps;
    const now = clock.now();
    const primary = profiles[0];
    const { id: userId } = await trx
      .insertInto('users')
      .values({
        ...(primary ? usernameColumns(primary.name) : { username: null, username_key: null, offline_uuid: null }),
        uuid: primary?.uuid ?? null,
        mail: account.mail ?? '',
        mail_key: account.mail ? mailKey(account.mail) : noMailKey(account.key, source),
        mail_verify: account.verified || !account.mail ? 1 : 0,
        mail_verification: 1,
        password: account.password,
        perms: account.level,
        max_profiles: account.maxProfiles ?? null,
        created_at: account.createdAt ?? now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const remember = (kind: string, sourceId: string, targetId: number) =>
      trx.insertInto('import_map').values({ source, kind, source_id: sourceId, target_id: targetId, imported_at: now }).execute();
    await remember('account', account.key, userId);

    const made = new Map<string, number>();
    for (const [key, texture] of capeTextures) {
      const cape = this.deps.capes.get(key)!;
      const { id } = await trx
        .insertInto('capes')
        .values({
          uuid: randomUUID(),
          name: cape.name.trim().slice(0, NAME_LENGTH) || 'Cape',
          texture_digest: texture.digest,
          created_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await remember('cape', key, id);
      made.set(key, id);
      if (this.deps.dryRun) this.dryCapes.add(key);
    }
    const capeId = (key: string | null | undefined) =>
      key && account.capes.includes(key) ? (made.get(key) ?? this.capeIds.get(key) ?? null) : null;
    const owned = [...new Set(account.capes.map(capeId).filter((id): id is number => id !== null && id >= 0))];
    if (owned.length > 0 && !this.deps.dryRun)
      await trx
        .insertInto('cape_owners')
        .values(owned.map((id) => ({ cape_id: id, user_id: userId, granted_at: now })))
        .execute();

    const skinIds = new Map<string, number>();
    for (const skin of skins) {
      const { id } = await trx
        .insertInto('skins')
        .values({
          uuid: randomUUID(),
          user_id: userId,
          name: skin.name,
          slim: skin.slim ? 1 : 0,
          hd: skin.texture.image.width > 64 ? 1 : 0,
          texture_digest: skin.texture.digest,
          cape_id: this.deps.dryRun ? null : capeId(skin.capeKey),
          created_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      skinIds.set(skin.key, id);
    }

    for (const profile of profiles) {
      await insertProfile(trx, { userId, name: profile.name, uuid: profile.uuid, now });
      const worn = {
        selected_skin_id: profile.skinKey ? (skinIds.get(profile.skinKey) ?? null) : null,
        selected_cape_id: this.deps.dryRun ? null : capeId(profile.capeKey),
      };
      if (worn.selected_skin_id !== null || worn.selected_cape_id !== null) await setWorn(trx, profile.uuid, worn);
    }

    if (account.discord) {
      const linked = await trx.selectFrom('users').select('id').where('dsid', '=', account.discord.id).executeTakeFirst();
      if (linked)
        this.leaveOut({
          kind: 'discord',
          source_id: account.key,
          name: account.label,
          reason: 'the Discord account is linked to an account here',
        });
      else
        await trx
          .updateTable('users')
          .set({ dsid: account.discord.id, discord_username: account.discord.username, discord_avatar: account.discord.avatar })
          .where('id', '=', userId)
          .execute();
    }

    const hardware = account.hardware ? await this.hardware(trx, account.hardware, userId, remember) : null;
    return { capes: made, hardware };
  }

  /** The account's hardware record (CookieCMS `hwids`), once per source record; the account points at it. */
  private async hardware(
    trx: Transaction<Database>,
    hardware: NonNullable<ImportedAccount['hardware']>,
    userId: number,
    remember: (kind: string, sourceId: string, targetId: number) => Promise<unknown>,
  ): Promise<'imported' | 'already'> {
    let earlier = await this.mapped(trx, 'hardware', hardware.key);
    // A machine whose launcher key is here already (it logged in through a LaunchServer of this service) is that
    // record: the account points at it, and the record stays as it is.
    if (earlier === undefined && hardware.publickey) {
      const known = await trx.selectFrom('hwids').select('id').where('publickey', '=', hardware.publickey).executeTakeFirst();
      if (known) {
        earlier = Number(known.id);
        await remember('hardware', hardware.key, earlier);
      }
    }
    let id = earlier;
    if (id === undefined) {
      const { key, battery, banned, ...columns } = hardware;
      // 0/1 for both databases: PostgreSQL reads '1' and '0' as booleans (as src/gravit/hardware.ts writes them).
      const flags = { battery: battery === null ? null : battery ? 1 : 0, banned: banned === null ? null : banned ? 1 : 0 };
      // bigserial on PostgreSQL: pg hands it over as a string.
      id = Number(
        (
          await trx
            .insertInto('hwids')
            .values({ ...columns, ...flags })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id,
      );
      await remember('hardware', key, id);
    }
    await trx
      .updateTable('users')
      .set({ hwid_id: String(id) })
      .where('id', '=', userId)
      .execute();
    return earlier === undefined ? 'imported' : 'already';
  }
}
