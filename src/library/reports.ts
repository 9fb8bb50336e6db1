// Reports of library entries and the moderation queue (contract section 19): a player reports a public entry (one
// open report per reporter and entry, at most 10 in any 24 hours); moderators dismiss or unpublish, admins also
// remove the picture from every wardrobe, block it or ban the entry's owner. Every open report of the entry closes
// with the same action, and everything is audited.
import { permsAt } from '../accounts/standing.ts';
import type { Kysely } from 'kysely';
import type { Acting, ActingAccount } from '../audit/acting.ts';
import { recordAudit } from '../audit/audit.ts';
import { unixSeconds, type Clock } from '../clock.ts';
import { isUniqueViolation } from '../database/dialect.ts';
import type { Database, Executor, ReportsTable } from '../database/schema.ts';
import { badRequest, conflict, forbidden, notFound, tooManyRequests } from '../http/envelope.ts';
import { languageOfUser, queueMail } from '../mail/outbox.ts';
import { libraryRemovedMessage } from '../mail/templates.ts';
import { LEVELS } from '../shared/levels.ts';
import type { Bans } from '../standing/bans.ts';
import type { TextureLibrary } from '../textures/library.ts';
import { blockIn } from './blocks.ts';

export const REPORT_REASONS = ['inappropriate', 'copyright', 'other'] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];

/** What closes a report: moderators may take the first two, admins all. */
export const REPORT_ACTIONS = ['dismiss', 'unpublish', 'remove_everywhere', 'block_digest', 'ban_owner'] as const;
export type ReportAction = (typeof REPORT_ACTIONS)[number];
const MODERATOR_ACTIONS: readonly ReportAction[] = ['dismiss', 'unpublish'];

/** At most this many reports per account in any 24 hours. */
export const MAX_REPORTS_PER_DAY = 10;
const DAY_MS = 24 * 3600 * 1000;

export interface ReportEntry {
  id: number;
  kind: 'skin' | 'cape';
  model: 'classic' | 'slim' | null;
  name: string;
  digest: string;
  url: string;
  /** public, pending, refused or withdrawn (unpublished by its owner or a moderator). */
  state: string;
  owner: { uuid: string; name: string };
}

export interface ReportRecord {
  id: number;
  kind: ReportsTable['kind'];
  state: ReportsTable['state'];
  reason: ReportReason;
  message: string;
  /** Unix seconds. */
  created: number;
  closed: number | null;
  closed_by: string | null;
  action: ReportAction | null;
  action_reason: string | null;
  reporter: { uuid: string; name: string } | null;
  /** The reported entry; null when it is gone altogether. */
  entry: ReportEntry | null;
  /** The other reports of the same entry, newest first. */
  history: { id: number; state: string; reason: string; action: string | null; created: number; closed: number | null }[];
}

export interface ReportQuery {
  kind: ReportsTable['kind'];
  /** open, or closed (dismissed and actioned), or one closed state. */
  state: 'open' | 'closed' | 'dismissed' | 'actioned';
  limit: number;
  offset: number;
}

export class Reports {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly textures: TextureLibrary,
    private readonly bans: Bans,
    private readonly clock: Clock,
    private readonly publicUrl: string,
    /** Wakes the mail worker after a transaction that queued mail has committed. */
    private readonly mailQueued: () => void,
    /** Told after a change to what players wear. */
    private readonly changed: () => void,
  ) {}

  /** A player reports a public library entry. */
  async report(acting: ActingAccount, entryId: number, input: { reason: ReportReason; message?: string }): Promise<ReportRecord> {
    const text = (input.message ?? '').trim();
    if (text.length > 500) throw badRequest('reports.messageLength', { field: 'message' });
    if (input.reason === 'other' && text === '') throw badRequest('reports.otherNeedsMessage', { field: 'message' });
    const entry = await this.db
      .selectFrom('library_entries')
      .select(['id', 'owner_id', 'name'])
      .where('id', '=', entryId)
      .where('state', '=', 'public')
      .executeTakeFirst();
    if (!entry) throw notFound('library.noEntry', { id: entryId });
    if (entry.owner_id === acting.accountId) throw conflict('reports.ownEntry');
    const now = this.clock.now();
    const subject = String(entry.id);
    const id = await this.db
      .transaction()
      .execute(async (trx) => {
        await this.checkOpen(trx, acting.accountId, subject);
        const recent = await trx
          .selectFrom('reports')
          .select('created_at')
          .where('reporter_id', '=', acting.accountId)
          .where('created_at', '>', now - DAY_MS)
          .orderBy('created_at', 'desc')
          .limit(MAX_REPORTS_PER_DAY)
          .execute();
        if (recent.length >= MAX_REPORTS_PER_DAY)
          throw tooManyRequests('reports.tooMany', (Number(recent.at(-1)!.created_at) + DAY_MS - now) / 1000);
        const { id } = await trx
          .insertInto('reports')
          .values({
            kind: 'library',
            reporter_id: acting.accountId,
            subject,
            reason: input.reason,
            message: text,
            evidence: null,
            attestation: null,
            state: 'open',
            open_key: openKey(acting.accountId, subject),
            action: null,
            action_reason: null,
            created_at: now,
            closed_at: null,
            closed_by: null,
            closed_by_name: null,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await recordAudit(trx, now, {
          actor: acting.actor,
          action: 'report.create',
          target: entry.owner_id,
          details: { report: id, entry: entry.id, name: entry.name, reason: input.reason },
        });
        return id;
      })
      .catch(async (error: unknown) => {
        // The same player's second report committed between our look and our write.
        if (isUniqueViolation(error)) await this.checkOpen(this.db, acting.accountId, subject);
        throw error;
      });
    return (await this.records(this.db, [id]))[0]!;
  }

  /** The moderation queue: open reports oldest first, closed ones newest first; with the total. */
  async list(query: ReportQuery): Promise<{ records: ReportRecord[]; total: number }> {
    const states: ReportsTable['state'][] = query.state === 'closed' ? ['dismissed', 'actioned'] : [query.state as ReportsTable['state']];
    const base = this.db.selectFrom('reports').where('kind', '=', query.kind).where('state', 'in', states);
    const rows = await base
      .select('id')
      .orderBy(query.state === 'open' ? 'created_at' : 'closed_at', query.state === 'open' ? 'asc' : 'desc')
      .orderBy('id', query.state === 'open' ? 'asc' : 'desc')
      .limit(query.limit)
      .offset(query.offset)
      .execute();
    const { total } = await base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
    return {
      records: await this.records(
        this.db,
        rows.map((row) => row.id),
      ),
      total: Number(total),
    };
  }

  /** Closes a report, and every other open report of the same entry, with one action. */
  async act(acting: Acting, reportId: number, action: ReportAction, reason = ''): Promise<ReportRecord> {
    const why = reason.trim();
    if (why.length > 500) throw badRequest('textures.reasonTooLong', { field: 'reason' });
    if (!MODERATOR_ACTIONS.includes(action) && acting.level < LEVELS.admin) throw forbidden('reports.adminAction', { action });
    const report = await this.db
      .selectFrom('reports')
      .select(['id', 'kind', 'subject', 'state'])
      .where('id', '=', reportId)
      .executeTakeFirst();
    if (!report || report.kind !== 'library') throw notFound('reports.noReport', { id: reportId });
    if (report.state !== 'open') throw conflict('reports.closedAlready');
    const entry = await this.db
      .selectFrom('library_entries')
      .innerJoin('users', 'users.id', 'library_entries.owner_id')
      .select([
        'library_entries.id',
        'library_entries.name',
        'library_entries.digest',
        'library_entries.owner_id',
        permsAt(this.clock.now()).as('owner_perms'),
        'users.uuid as owner_uuid',
      ])
      .where('library_entries.id', '=', Number(report.subject))
      .executeTakeFirst();
    if (!entry && action !== 'dismiss') throw conflict('reports.entryGone');

    if (action === 'ban_owner' && entry!.owner_perms !== LEVELS.banned) {
      // Section 15's rules (an admin by perms, above the owner's) refuse the ban before anything changes.
      await this.bans.create(acting, String(entry!.owner_id), {
        scope: 'account',
        reason: 'GENERIC_VIOLATION',
        ...(why ? { message: why } : {}),
      });
    }
    const now = this.clock.now();
    let mailed = false;
    await this.textures.releasing(async (trx) => {
      let released: string[] = [];
      let subjects = [report.subject];
      const details: Record<string, unknown> = { entry: entry?.id ?? Number(report.subject), action, reason: why };
      if (action === 'unpublish' || action === 'block_digest') {
        await unpublish(trx, now, acting, [entry!.id]);
        if (action === 'block_digest') await blockIn(trx, now, acting, entry!.digest, why || `report ${report.id}`);
      } else if (action === 'ban_owner') {
        const live = await trx
          .selectFrom('library_entries')
          .select('id')
          .where('owner_id', '=', entry!.owner_id)
          .where('live_digest', 'is not', null)
          .execute();
        const ids = [...new Set([entry!.id, ...live.map((row) => row.id)])];
        await unpublish(trx, now, acting, ids);
        subjects = ids.map(String);
      } else if (action === 'remove_everywhere') {
        const removed = await this.removeEverywhere(trx, now, acting, entry!, why);
        released = [entry!.digest];
        details.copies = removed;
        mailed = true;
      }
      const closed = await trx
        .updateTable('reports')
        .set({
          state: action === 'dismiss' ? 'dismissed' : 'actioned',
          open_key: null,
          action,
          action_reason: why || null,
          closed_at: now,
          closed_by: acting.accountId,
          closed_by_name: acting.actor.name,
        })
        .where('kind', '=', 'library')
        .where('subject', 'in', subjects)
        .where('state', '=', 'open')
        .returning('id')
        .execute();
      await recordAudit(trx, now, {
        actor: acting.actor,
        action: 'report.resolve',
        target: entry?.owner_id ?? null,
        details: { ...details, reports: closed.map((row) => row.id) },
      });
      return { result: undefined, released };
    });
    if (action === 'remove_everywhere') this.changed();
    if (mailed) this.mailQueued();
    return (await this.records(this.db, [reportId]))[0]!;
  }

  /**
   * Deletes every wardrobe copy of the entry's picture (skins, and capes of players' own); profiles wearing one wear
   * nothing (the foreign keys' ON DELETE SET NULL); the entry's owner and every account that lost a copy are mailed in
   * their language. The entries of the picture are kept, withdrawn, for the reports' history.
   */
  private async removeEverywhere(
    trx: Executor,
    now: number,
    acting: Acting,
    entry: { id: number; name: string; digest: string; owner_id: number },
    why: string,
  ): Promise<number> {
    await trx
      .updateTable('library_entries')
      .set({ state: 'withdrawn', live_digest: null, skin_id: null, cape_id: null })
      .where('digest', '=', entry.digest)
      .execute();
    const skins = await trx.selectFrom('skins').select(['id', 'user_id']).where('texture_digest', '=', entry.digest).execute();
    const capes = await trx
      .selectFrom('capes')
      .select(['id', 'uploader_id'])
      .where('texture_digest', '=', entry.digest)
      .where('uploader_id', 'is not', null)
      .execute();
    if (skins.length > 0)
      await trx
        .deleteFrom('skins')
        .where(
          'id',
          'in',
          skins.map((skin) => skin.id),
        )
        .execute();
    if (capes.length > 0)
      await trx
        .deleteFrom('capes')
        .where(
          'id',
          'in',
          capes.map((cape) => cape.id),
        )
        .execute();
    await recordAudit(trx, now, {
      actor: acting.actor,
      action: 'library.unpublish',
      target: entry.owner_id,
      details: { entry: entry.id, name: entry.name, removed_copies: skins.length + capes.length },
    });
    const recipients = new Set<number>([entry.owner_id, ...skins.map((skin) => skin.user_id), ...capes.map((cape) => cape.uploader_id!)]);
    for (const userId of recipients) {
      const user = await trx.selectFrom('users').select(['username', 'mail']).where('id', '=', userId).executeTakeFirst();
      if (!user) continue;
      const language = await languageOfUser(trx, userId);
      await queueMail(
        trx,
        now,
        user.mail,
        libraryRemovedMessage(language, user.username ?? user.mail, entry.name, why, userId === entry.owner_id),
      );
    }
    return skins.length + capes.length;
  }

  /** 409 when this reporter has an open report of this entry. */
  private async checkOpen(db: Executor, reporterId: number, subject: string) {
    const open = await db.selectFrom('reports').select('id').where('open_key', '=', openKey(reporterId, subject)).executeTakeFirst();
    if (open) throw conflict('reports.openAlready', { id: open.id });
  }

  private async records(db: Executor, ids: number[]): Promise<ReportRecord[]> {
    if (ids.length === 0) return [];
    const rows = await db
      .selectFrom('reports')
      .leftJoin('users as reporter', 'reporter.id', 'reports.reporter_id')
      .selectAll('reports')
      .select(['reporter.uuid as reporter_uuid', 'reporter.username as reporter_name'])
      .where('reports.id', 'in', ids)
      .execute();
    const subjects = [...new Set(rows.map((row) => row.subject))];
    const entryIds = subjects.map(Number).filter((id) => Number.isInteger(id) && id > 0 && id <= 2_147_483_647);
    const entries =
      entryIds.length === 0
        ? []
        : await db
            .selectFrom('library_entries')
            .innerJoin('users', 'users.id', 'library_entries.owner_id')
            .select([
              'library_entries.id',
              'library_entries.kind',
              'library_entries.model',
              'library_entries.name',
              'library_entries.digest',
              'library_entries.state',
              'users.uuid as owner_uuid',
              'users.username as owner_name',
            ])
            .where('library_entries.id', 'in', entryIds)
            .execute();
    const others = await db
      .selectFrom('reports')
      .select(['id', 'subject', 'state', 'reason', 'action', 'created_at', 'closed_at'])
      .where('kind', '=', 'library')
      .where('subject', 'in', subjects)
      .orderBy('id', 'desc')
      .execute();
    const byId = new Map(
      rows.map((row) => {
        const entry = entries.find((candidate) => String(candidate.id) === row.subject);
        const record: ReportRecord = {
          id: row.id,
          kind: row.kind,
          state: row.state,
          reason: row.reason,
          message: row.message,
          created: unixSeconds(Number(row.created_at)),
          closed: row.closed_at === null ? null : unixSeconds(Number(row.closed_at)),
          closed_by: row.closed_by_name,
          action: row.action as ReportAction | null,
          action_reason: row.action_reason,
          reporter: row.reporter_name === null ? null : { uuid: row.reporter_uuid ?? '', name: row.reporter_name },
          entry: entry
            ? {
                id: entry.id,
                kind: entry.kind,
                model: entry.model,
                name: entry.name,
                digest: entry.digest,
                url: `${this.publicUrl}/textures/${entry.digest}`,
                state: entry.state,
                owner: { uuid: entry.owner_uuid ?? '', name: entry.owner_name ?? '' },
              }
            : null,
          history: others
            .filter((other) => other.subject === row.subject && other.id !== row.id)
            .map((other) => ({
              id: other.id,
              state: other.state,
              reason: other.reason,
              action: other.action,
              created: unixSeconds(Number(other.created_at)),
              closed: other.closed_at === null ? null : unixSeconds(Number(other.closed_at)),
            })),
        };
        return [row.id, record];
      }),
    );
    return ids.map((id) => byId.get(id)!).filter(Boolean);
  }
}

const openKey = (reporterId: number, subject: string) => `library:${reporterId}:${subject}`;

/** Withdraws live entries (public or pending) as a moderation act, audited as library.unpublish. */
async function unpublish(trx: Executor, now: number, acting: Acting, ids: number[]) {
  const done = await trx
    .updateTable('library_entries')
    .set({ state: 'withdrawn', live_digest: null })
    .where('id', 'in', ids)
    .where('live_digest', 'is not', null)
    .returning(['id', 'owner_id', 'name'])
    .execute();
  for (const entry of done)
    await recordAudit(trx, now, {
      actor: acting.actor,
      action: 'library.unpublish',
      target: entry.owner_id,
      details: { entry: entry.id, name: entry.name, moderation: true },
    });
}
