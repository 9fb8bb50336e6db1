// The public skin library (contract section 19): players publish a wardrobe skin or a cape of their own, anyone
// browses the public entries, players save a copy into their own wardrobe. One public entry per texture digest.
import { randomUUID } from 'node:crypto';
import { sql, type Expression, type ExpressionBuilder, type Kysely, type SqlBool } from 'kysely';
import { normalizeUuid } from '../accounts/identifiers.ts';
import { LEVELS } from '../accounts/standing.ts';
import type { Acting, ActingAccount } from '../audit/acting.ts';
import { languageOfUser, queueMail } from '../mail/outbox.ts';
import { libraryRefusedMessage } from '../mail/templates.ts';
import { recordAudit } from '../audit/audit.ts';
import { unixSeconds, type Clock } from '../clock.ts';
import { isUniqueViolation } from '../database/dialect.ts';
import type { Database, Executor } from '../database/schema.ts';
import { ApiError, badRequest, conflict, forbidden, message, notFound, tooManyRequests } from '../http/envelope.ts';
import { checkNotBlocked, type TextureLibrary } from '../textures/library.ts';
import { RecentTotals } from './totals.ts';
import { MAX_OWN_CAPES_PER_PLAYER } from '../textures/own-capes.ts';
import { textureUrl } from '../textures/texture-url.ts';
import { MAX_SKINS_PER_PLAYER, type Wardrobe } from '../textures/wardrobe.ts';
import type { CapeRecord } from '../http/shapes/cape-record.ts';
import type { SkinRecord } from '../http/shapes/skin-record.ts';
import type { EntryKind, EntrySource, LibraryEntry } from '../http/shapes/library-entry.ts';

export interface PublishInput {
  name?: string;
  description?: string;
  source: EntrySource;
  source_url?: string;
}

export interface LibraryQuery {
  kind?: EntryKind;
  model?: 'classic' | 'slim';
  q?: string;
  uploader?: string;
  sort: 'new' | 'popular';
  limit: number;
  offset: number;
}

/** At most this many publications per account in any 24 hours (withdrawn ones count). */
export const MAX_PUBLICATIONS_PER_DAY = 20;
const DAY_MS = 24 * 3600 * 1000;

export class LibraryService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly textures: TextureLibrary,
    private readonly wardrobe: Wardrobe,
    private readonly clock: Clock,
    private readonly publicUrl: string,
    /** USER_CAPES: saving a cape makes a cape of the saver's own, so it needs them allowed. */
    private readonly userCapes: boolean,
    /** Told after a change to what players wear. */
    private readonly changed: () => void,
    /** LIBRARY_REVIEW: new entries are pending until a moderator decides, unless their owner is review_exempt. */
    private readonly review = false,
    /** Wakes the mail worker after a transaction that queued mail has committed. */
    private readonly mailQueued: () => void = () => {},
  ) {}

  /** The totals of the filters asked lately; cleared by every change made here, others show within its lifetime. */
  private readonly totals = new RecentTotals();

  /** Publishes one of the caller's wardrobe skins (kind skin) or a cape they uploaded (kind cape). */
  async publish(acting: ActingAccount, kind: EntryKind, uuid: string, input: PublishInput): Promise<LibraryEntry> {
    const texture = await this.ownTexture(acting.accountId, kind, uuid);
    const name = (input.name ?? texture.name).trim();
    if (name.length < 1 || name.length > 64) throw badRequest('library.nameLength');
    const description = (input.description ?? '').trim();
    const sourceUrl = input.source_url?.trim() || null;
    if (sourceUrl !== null && !isWebAddress(sourceUrl)) throw badRequest('library.sourceUrl');
    const now = this.clock.now();
    const exempt =
      !this.review ||
      (await this.db.selectFrom('users').select('review_exempt').where('id', '=', acting.accountId).executeTakeFirstOrThrow())
        .review_exempt === 1;
    const id = await this.db
      .transaction()
      .execute(async (trx) => {
        await this.checkDailyLimit(trx, acting.accountId, now);
        await this.checkNotLive(trx, texture.digest);
        const { id } = await trx
          .insertInto('library_entries')
          .values({
            kind,
            skin_id: kind === 'skin' ? texture.id : null,
            cape_id: kind === 'cape' ? texture.id : null,
            owner_id: acting.accountId,
            digest: texture.digest,
            model: kind === 'skin' ? (texture.slim ? 'slim' : 'classic') : null,
            name,
            name_key: name.toLowerCase(),
            description,
            source: input.source,
            source_url: sourceUrl,
            state: exempt ? 'public' : 'pending',
            live_digest: texture.digest,
            created_at: now,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await recordAudit(trx, now, {
          actor: acting.actor,
          action: 'library.publish',
          target: acting.accountId,
          details: { entry: id, kind, name, digest: texture.digest, ...(exempt ? {} : { pending: true }) },
        });
        return id;
      })
      .catch(async (error: unknown) => {
        // Another publication of the same picture committed between our look and our write.
        if (isUniqueViolation(error)) await this.checkNotLive(this.db, texture.digest);
        throw error;
      });
    this.totals.clear();
    return (await this.entries(this.db, (query) => query.where('library_entries.id', '=', id)))[0]!;
  }

  /** Withdraws the caller's live entry of this wardrobe skin or cape; copies others saved stay theirs. */
  async withdraw(acting: ActingAccount, kind: EntryKind, uuid: string): Promise<{ id: number }> {
    const texture = await this.ownTexture(acting.accountId, kind, uuid);
    const entry = await this.db
      .selectFrom('library_entries')
      .select(['id', 'name'])
      .where(kind === 'skin' ? 'skin_id' : 'cape_id', '=', texture.id)
      .where('live_digest', 'is not', null)
      .executeTakeFirst();
    if (!entry) throw notFound('library.notPublished');
    await this.db.transaction().execute(async (trx) => {
      await trx.updateTable('library_entries').set({ state: 'withdrawn', live_digest: null }).where('id', '=', entry.id).execute();
      await recordAudit(trx, this.clock.now(), {
        actor: acting.actor,
        action: 'library.unpublish',
        target: acting.accountId,
        details: { entry: entry.id, name: entry.name },
      });
    });
    this.totals.clear();
    return { id: entry.id };
  }

  /** A page of the public library, with the total of the filtered list. */
  async list(query: LibraryQuery): Promise<{ records: LibraryEntry[]; total: number }> {
    const uploaderId = query.uploader === undefined ? undefined : await this.uploaderId(query.uploader);
    const q = query.q?.trim().toLowerCase();
    const filter = (eb: ExpressionBuilder<Database, 'library_entries'>) => {
      const conditions: Expression<SqlBool>[] = [eb('library_entries.state', '=', 'public')];
      // Only skins have a model: with one asked, kind=skin says nothing more (and the model's index serves alone).
      if (query.kind && !(query.kind === 'skin' && query.model)) conditions.push(eb('library_entries.kind', '=', query.kind));
      if (query.model) conditions.push(eb('library_entries.model', '=', query.model));
      if (uploaderId !== undefined) conditions.push(eb('library_entries.owner_id', '=', uploaderId));
      if (q) conditions.push(sql<boolean>`library_entries.name_key like ${`%${escapeLike(q)}%`} escape '\\'`);
      return eb.and(conditions);
    };
    // The page's ids first, from the index alone, and only those 48 rows read in full with their owners: a deep page
    // steps over its offset in the index instead of joining every row it skips.
    const ids = this.db.selectFrom('library_entries').select('library_entries.id').where(filter);
    const page = (
      query.sort === 'popular'
        ? ids.orderBy('library_entries.saves', 'desc').orderBy('library_entries.created_at', 'desc')
        : ids.orderBy('library_entries.created_at', 'desc')
    )
      .orderBy('library_entries.id', 'desc')
      .limit(query.limit)
      .offset(query.offset);
    const records = await this.entries(this.db, (builder) => {
      const ordered =
        query.sort === 'popular'
          ? builder.orderBy('library_entries.saves', 'desc').orderBy('library_entries.created_at', 'desc')
          : builder.orderBy('library_entries.created_at', 'desc');
      return ordered.orderBy('library_entries.id', 'desc').where('library_entries.id', 'in', page);
    });
    const key = JSON.stringify([query.kind, query.model, q, uploaderId]);
    const total =
      this.totals.get(key, this.clock.now()) ??
      this.totals.set(
        key,
        this.clock.now(),
        Number(
          (
            await this.db
              .selectFrom('library_entries')
              .select((eb) => eb.fn.countAll<number>().as('total'))
              .where(filter)
              .executeTakeFirstOrThrow()
          ).total,
        ),
      );
    return { records, total };
  }

  /**
   * A public entry (anyone); a pending or refused one to its owner and moderators only, read from the caller only
   * then; a withdrawn or unknown one, or one the caller may not see, 404.
   */
  async entry(id: number, viewer: () => Promise<ActingAccount | null>): Promise<LibraryEntry> {
    const row = await this.baseQuery(this.db)
      .select('library_entries.owner_id')
      .where('library_entries.id', '=', id)
      .where('library_entries.state', 'in', ['public', 'pending', 'refused'])
      .executeTakeFirst();
    if (!row) throw notFound('library.noEntry', { id });
    if (row.state === 'public') return this.toEntry(row);
    const caller = await viewer();
    if (caller && (caller.accountId === row.owner_id || caller.level >= LEVELS.moderator)) return this.toEntry(row);
    throw notFound('library.noEntry', { id });
  }

  /** Copies a public entry into the caller's wardrobe: a skin of theirs, or a cape of their own. */
  async save(acting: ActingAccount, id: number, requestedName?: string): Promise<SkinRecord | CapeRecord> {
    const entry = await this.db
      .selectFrom('library_entries')
      .select(['id', 'kind', 'owner_id', 'digest', 'model', 'name'])
      .where('id', '=', id)
      .where('state', '=', 'public')
      .executeTakeFirst();
    if (!entry) throw notFound('library.noEntry', { id });
    if (entry.owner_id === acting.accountId) throw conflict('library.ownEntry');
    if (entry.kind === 'cape' && !this.userCapes) throw forbidden('textures.userCapesOff');
    const name = (requestedName ?? entry.name).trim();
    if (name.length < 1 || name.length > 64) throw badRequest('library.nameLength');
    const now = this.clock.now();
    const copy = await this.db.transaction().execute(async (trx) => {
      await checkNotBlocked(trx, entry.digest);
      const saved = await trx
        .selectFrom('library_saves')
        .select('entry_id')
        .where('entry_id', '=', entry.id)
        .where('user_id', '=', acting.accountId)
        .executeTakeFirst();
      if (saved) throw conflict('library.alreadySaved');
      const uuid = randomUUID();
      let skinId: number | null = null;
      let capeId: number | null = null;
      if (entry.kind === 'skin') {
        await checkCount(trx, 'skins', 'user_id', acting.accountId, MAX_SKINS_PER_PLAYER, 'textures.tooManySkins');
        ({ id: skinId } = await trx
          .insertInto('skins')
          .values({
            uuid,
            user_id: acting.accountId,
            name,
            slim: entry.model === 'slim' ? 1 : 0,
            hd: await isHd(trx, entry.digest),
            texture_digest: entry.digest,
            cape_id: null,
            created_at: now,
          })
          .returning('id')
          .executeTakeFirstOrThrow());
      } else {
        await checkCount(trx, 'capes', 'uploader_id', acting.accountId, MAX_OWN_CAPES_PER_PLAYER, 'textures.tooManyCapes');
        ({ id: capeId } = await trx
          .insertInto('capes')
          .values({ uuid, name, texture_digest: entry.digest, created_at: now, uploader_id: acting.accountId })
          .returning('id')
          .executeTakeFirstOrThrow());
        await trx.insertInto('cape_owners').values({ cape_id: capeId, user_id: acting.accountId, granted_at: now }).execute();
      }
      await trx
        .insertInto('library_saves')
        .values({ entry_id: entry.id, user_id: acting.accountId, skin_id: skinId, cape_id: capeId, created_at: now })
        .execute();
      await trx
        .updateTable('library_entries')
        .set((eb) => ({ saves: eb('saves', '+', 1) }))
        .where('id', '=', entry.id)
        .execute();
      await recordAudit(trx, now, {
        actor: acting.actor,
        action: entry.kind === 'skin' ? 'skin.upload' : 'cape.upload',
        target: acting.accountId,
        details: { [entry.kind]: uuid, digest: entry.digest, library_entry: entry.id },
      });
      return uuid;
    });
    this.changed();
    const records: (SkinRecord | CapeRecord)[] =
      entry.kind === 'skin' ? await this.wardrobe.ownSkins(acting.accountId) : await this.wardrobe.ownCapes(acting.accountId);
    return records.find((record) => record.uuid === copy)!;
  }

  /** Removes the caller's saved copy of an entry (404 when they have none); `saves` goes down by one. */
  async unsave(acting: ActingAccount, id: number): Promise<{ id: number }> {
    await this.textures.releasing(async (trx) => {
      const saved = await trx
        .selectFrom('library_saves')
        .innerJoin('library_entries', 'library_entries.id', 'library_saves.entry_id')
        .leftJoin('skins', 'skins.id', 'library_saves.skin_id')
        .leftJoin('capes', 'capes.id', 'library_saves.cape_id')
        .select(['library_saves.skin_id', 'library_saves.cape_id', 'library_entries.digest', 'skins.uuid as skin', 'capes.uuid as cape'])
        .where('library_saves.entry_id', '=', id)
        .where('library_saves.user_id', '=', acting.accountId)
        .executeTakeFirst();
      if (!saved) throw notFound('library.notSaved', { id });
      if (saved.skin_id !== null) await trx.deleteFrom('skins').where('id', '=', saved.skin_id).execute();
      if (saved.cape_id !== null) await trx.deleteFrom('capes').where('id', '=', saved.cape_id).execute();
      await trx.deleteFrom('library_saves').where('entry_id', '=', id).where('user_id', '=', acting.accountId).execute();
      await trx
        .updateTable('library_entries')
        .set((eb) => ({ saves: eb('saves', '-', 1) }))
        .where('id', '=', id)
        .where('saves', '>', 0)
        .execute();
      await recordAudit(trx, this.clock.now(), {
        actor: acting.actor,
        action: saved.skin_id !== null ? 'skin.delete' : 'cape.delete',
        target: acting.accountId,
        details: { ...(saved.skin ? { skin: saved.skin } : { cape: saved.cape }), library_entry: id },
      });
      return { result: undefined, released: [saved.digest] };
    });
    this.changed();
    return { id };
  }

  /** The caller's own entries, public, pending (LIBRARY_REVIEW) and refused, newest first. */
  async own(acting: ActingAccount): Promise<LibraryEntry[]> {
    return this.entries(this.db, (query) =>
      query
        .where('library_entries.owner_id', '=', acting.accountId)
        .where('library_entries.state', 'in', ['public', 'pending', 'refused'])
        .orderBy('library_entries.created_at', 'desc')
        .orderBy('library_entries.id', 'desc'),
    );
  }

  /** The review queue (moderators): pending entries oldest first, or refused ones newest first. */
  async reviewQueue(query: { state: 'pending' | 'refused'; limit: number; offset: number }) {
    const records = await this.entries(this.db, (builder) =>
      builder
        .where('library_entries.state', '=', query.state)
        .orderBy('library_entries.created_at', query.state === 'pending' ? 'asc' : 'desc')
        .orderBy('library_entries.id', query.state === 'pending' ? 'asc' : 'desc')
        .limit(query.limit)
        .offset(query.offset),
    );
    const { total } = await this.db
      .selectFrom('library_entries')
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .where('state', '=', query.state)
      .executeTakeFirstOrThrow();
    return { records, total: Number(total) };
  }

  /** A moderator's decision on a pending entry: public, or refused (withdrawn, its owner mailed in their language). */
  async decide(acting: Acting, id: number, state: 'public' | 'refused', reason = ''): Promise<LibraryEntry> {
    const why = reason.trim();
    if (why.length > 500) throw badRequest('textures.reasonTooLong', { field: 'reason' });
    const now = this.clock.now();
    await this.db.transaction().execute(async (trx) => {
      const entry = await trx
        .selectFrom('library_entries')
        .innerJoin('users', 'users.id', 'library_entries.owner_id')
        .select([
          'library_entries.id',
          'library_entries.name',
          'library_entries.state',
          'library_entries.owner_id',
          'users.username',
          'users.mail',
        ])
        .where('library_entries.id', '=', id)
        .executeTakeFirst();
      if (!entry || entry.state === 'withdrawn') throw notFound('library.noEntry', { id });
      if (entry.state !== 'pending') throw conflict('review.notPending');
      const decided = await trx
        .updateTable('library_entries')
        .set(state === 'public' ? { state } : { state, live_digest: null })
        .where('id', '=', id)
        .where('state', '=', 'pending')
        .executeTakeFirst();
      if (Number(decided.numUpdatedRows) === 0) throw conflict('review.notPending');
      await recordAudit(trx, now, {
        actor: acting.actor,
        action: state === 'public' ? 'library.approve' : 'library.refuse',
        target: entry.owner_id,
        details: { entry: id, name: entry.name, ...(why ? { reason: why } : {}) },
      });
      if (state === 'refused') {
        const language = await languageOfUser(trx, entry.owner_id);
        await queueMail(trx, now, entry.mail, libraryRefusedMessage(language, entry.username ?? entry.mail, entry.name, why));
      }
    });
    this.totals.clear();
    if (state === 'refused') this.mailQueued();
    return (await this.entries(this.db, (query) => query.where('library_entries.id', '=', id)))[0]!;
  }

  // ---- shared ----

  /** The caller's wardrobe skin, or a cape they uploaded, by UUID (404 for anything else). */
  private async ownTexture(userId: number, kind: EntryKind, uuid: string) {
    const id = normalizeUuid(uuid);
    const found =
      id &&
      (kind === 'skin'
        ? await this.db
            .selectFrom('skins')
            .select(['id', 'name', 'texture_digest as digest', 'slim'])
            .where('uuid', '=', id)
            .where('user_id', '=', userId)
            .executeTakeFirst()
        : await this.db
            .selectFrom('capes')
            .select(['id', 'name', 'texture_digest as digest', sql<number>`0`.as('slim')])
            .where('uuid', '=', id)
            .where('uploader_id', '=', userId)
            .executeTakeFirst());
    if (!found) throw notFound(kind === 'skin' ? 'textures.noSkin' : 'textures.noOwnCape', { uuid });
    return { ...found, slim: found.slim === 1 };
  }

  private async checkDailyLimit(db: Executor, ownerId: number, now: number) {
    const recent = await db
      .selectFrom('library_entries')
      .select('created_at')
      .where('owner_id', '=', ownerId)
      .where('created_at', '>', now - DAY_MS)
      .orderBy('created_at', 'desc')
      .limit(MAX_PUBLICATIONS_PER_DAY)
      .execute();
    if (recent.length >= MAX_PUBLICATIONS_PER_DAY) {
      const oldest = Number(recent.at(-1)!.created_at);
      throw tooManyRequests('library.tooManyPublications', (oldest + DAY_MS - now) / 1000);
    }
  }

  /** 409 with the id of the live entry of this picture, when there is one. */
  private async checkNotLive(db: Executor, digest: string) {
    const live = await db.selectFrom('library_entries').select('id').where('live_digest', '=', digest).executeTakeFirst();
    if (live) throw new ApiError(409, message('library.alreadyPublished', { id: live.id }), {}, { id: live.id });
  }

  private async uploaderId(uploader: string): Promise<number | null> {
    const uuid = normalizeUuid(uploader);
    const profile = await this.db
      .selectFrom('profiles')
      .select('user_id')
      .where(uuid ? 'uuid' : 'name_key', '=', uuid ?? uploader.trim().toLowerCase())
      .executeTakeFirst();
    // Nobody by that name: an empty page, as for a player who published nothing.
    return profile?.user_id ?? -1;
  }

  private baseQuery(db: Executor) {
    return db
      .selectFrom('library_entries')
      .innerJoin('users', 'users.id', 'library_entries.owner_id')
      .select([
        'library_entries.id',
        'library_entries.kind',
        'library_entries.model',
        'library_entries.name',
        'library_entries.description',
        'library_entries.source',
        'library_entries.source_url',
        'library_entries.digest',
        'library_entries.saves',
        'library_entries.created_at',
        'library_entries.state',
        'users.uuid as owner_uuid',
        'users.username as owner_name',
      ]);
  }

  private async entries(db: Executor, shape: (query: EntryQuery) => EntryQuery): Promise<LibraryEntry[]> {
    return (await shape(this.baseQuery(db)).execute()).map((row) => this.toEntry(row));
  }

  private toEntry(row: EntryRow): LibraryEntry {
    return {
      id: row.id,
      kind: row.kind,
      model: row.model,
      name: row.name,
      description: row.description,
      source: row.source,
      source_url: row.source_url,
      digest: row.digest,
      url: textureUrl(this.publicUrl, row.digest),
      owner: { uuid: row.owner_uuid ?? '', name: row.owner_name ?? '' },
      saves: Number(row.saves),
      created: unixSeconds(Number(row.created_at)),
      state: row.state as LibraryEntry['state'],
    };
  }
}

type EntryQuery = ReturnType<LibraryService['baseQuery']>;
type EntryRow = Awaited<ReturnType<EntryQuery['executeTakeFirstOrThrow']>>;

const isWebAddress = (value: string) => {
  if (value.length > 500) return false;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
};

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (character) => `\\${character}`);

async function checkCount(
  db: Executor,
  table: 'skins' | 'capes',
  column: 'user_id' | 'uploader_id',
  userId: number,
  max: number,
  refusal: string,
) {
  const { count } = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where(column as 'user_id', '=', userId)
    .executeTakeFirstOrThrow();
  if (Number(count) >= max) throw badRequest(refusal, { count: max });
}

async function isHd(db: Executor, digest: string): Promise<number> {
  const texture = await db.selectFrom('textures').select('width').where('digest', '=', digest).executeTakeFirstOrThrow();
  return texture.width > 64 ? 1 : 0;
}
