// Reports from the game (contract section 24; wire-shapes-26 §4): the chat, name and skin reports a player sends
// from the game (POST player/report), checked and stored with their evidence; each chat message's signature verified
// against the keys this service certified for its sender; and the moderators' queue that closes them with an action.
import type { Kysely } from 'kysely';
import type { Caller } from '../accounts/authenticate.ts';
import type { Acting } from '../audit/acting.ts';
import { recordAudit } from '../audit/audit.ts';
import type { Clock } from '../clock.ts';
import type { Database, Executor } from '../database/schema.ts';
import { badRequest, conflict, forbidden, notFound } from '../http/envelope.ts';
import { LEVELS } from '../shared/levels.ts';
import { languageOfUser, queueMail } from '../mail/outbox.ts';
import { BAN_REASONS, type BanReason } from '../shared/ban-reasons.ts';
import type { PlayerWearing } from '../textures/worn.ts';
import { GameServiceError } from '../yggdrasil/errors.ts';
import type { Bans } from './bans.ts';
import { certifiedKeysOf, type CertifiedKey } from '../yggdrasil/certified-keys.ts';
import { REPORT_TYPES, type ReportKind } from './report-kinds.ts';
import { attestationOf, checkMessages, type Attestation, type EvidenceMessage, type MessageProblem } from './chat-attestation.ts';
import type { ForcedActions } from './forced-actions.ts';
import { reportWarningMessage } from './report-mails.ts';
import {
  instantField,
  isObject,
  malformed,
  MAX_CHAT_CHARS,
  MAX_LAST_SEEN,
  refuse,
  REPORT_PATH,
  saltField,
  signatureField,
  uuidField,
} from './report-fields.ts';
import {
  checkLegacyMessages,
  parseLegacyMessage,
  storedLegacyMessages,
  type LegacyCheckedMessage,
  type LegacyMessage,
} from './legacy-report.ts';

/** Reports one account may send in 24 hours (contract section 24). */
export const REPORTS_PER_DAY = 20;
const DAY_MS = 24 * 3600_000;

/** The game's report reasons (AbuseReportReason); not the ban reasons. */
export const REPORT_REASONS = [
  'I_WANT_TO_REPORT_THEM',
  'HATE_SPEECH',
  'HARASSMENT_OR_BULLYING',
  'SELF_HARM_OR_SUICIDE',
  'IMMINENT_HARM',
  'DEFAMATION_IMPERSONATION_FALSE_INFORMATION',
  'ALCOHOL_TOBACCO_DRUGS',
  'CHILD_SEXUAL_EXPLOITATION_OR_ABUSE',
  'TERRORISM_OR_VIOLENT_EXTREMISM',
  'NON_CONSENSUAL_INTIMATE_IMAGERY',
  'SEXUALLY_INAPPROPRIATE',
] as const;

/** The game's limits (AbuseReportLimits.DEFAULTS): a comment, reported messages, evidence messages. */
const MAX_COMMENT = 1000;
const MAX_REPORTED = 4;
const MAX_EVIDENCE = 40;

export const REPORT_ACTIONS = ['dismiss', 'warn', 'ban_multiplayer', 'ban_account', 'force_rename', 'block_skin'] as const;
export type ReportAction = (typeof REPORT_ACTIONS)[number];

/** A stored message with its verification. */
export interface CheckedMessage {
  index: number;
  profileId: string;
  sessionId: string;
  /** Unix milliseconds. */
  timestamp: number;
  /** The 64-bit salt as decimal text (exact). */
  salt: string;
  lastSeen: string[];
  message: string;
  signature: string | null;
  messageReported: boolean;
  verified: boolean;
  problem: MessageProblem | null;
}

/** What a report carries besides its fields, as stored (JSON) and answered to moderators. */
export interface ReportEvidence {
  /** 1.19.3+ messages, or 1.19.1-1.19.2 ones (format legacy), in the report's order. */
  messages?: (CheckedMessage | LegacyCheckedMessage)[];
  /** Skin reports: the skin and cape the reported profile wore when the report came, and the URL the game sent. */
  skinUrl?: string | null;
  skin?: { digest: string; slim: boolean } | null;
  cape?: { digest: string } | null;
  client?: { version: string | null; locale: string | null };
  server?: string | null;
  realm?: boolean;
}

/** A game report as the moderators' queue answers it. */
export interface GameReport {
  id: number;
  kind: ReportKind;
  reportId: string;
  reporter: { uuid: string; name: string };
  subject: { uuid: string; name: string; currentName: string | null };
  reason: string | null;
  comment: string;
  attestation: Attestation | null;
  /** Positions in `evidence.messages` of the messages that failed verification. */
  failed: number[];
  evidence: ReportEvidence;
  state: 'open' | 'dismissed' | 'actioned';
  created: number;
  closed: number | null;
  closedBy: string | null;
  action: ReportAction | null;
}

export interface ActionInput {
  action: ReportAction;
  /** Bans: one of the ban reasons (or other with message). */
  reason?: BanReason;
  /** Bans and warnings: the moderator's words to the player. */
  message?: string;
  /** ban_multiplayer: its end, Unix seconds. */
  expires?: number;
}

function parseMessage(value: unknown, at: number): EvidenceMessage {
  if (!isObject(value)) throw malformed(`evidence message ${at} must be an object`);
  const index = value.index;
  if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index > 2147483647)
    throw malformed(`evidence message ${at}: index must be a non-negative integer`);
  if (typeof value.message !== 'string' || value.message.length > MAX_CHAT_CHARS)
    throw malformed(`evidence message ${at}: message must be text of at most ${MAX_CHAT_CHARS} characters`);
  const lastSeen = value.lastSeen ?? [];
  if (!Array.isArray(lastSeen) || lastSeen.length > MAX_LAST_SEEN)
    throw malformed(`evidence message ${at}: lastSeen must be a list of at most ${MAX_LAST_SEEN} signatures`);
  return {
    index,
    profileId: uuidField(value.profileId, `evidence message ${at}: profileId`),
    sessionId: uuidField(value.sessionId, `evidence message ${at}: sessionId`),
    timestamp: instantField(value.timestamp, `evidence message ${at}: timestamp`),
    salt: saltField(value.salt),
    lastSeen: lastSeen.map((seen) => signatureField(seen, `evidence message ${at}: lastSeen`)),
    message: value.message,
    signature:
      value.signature === null || value.signature === undefined
        ? null
        : signatureField(value.signature, `evidence message ${at}: signature`),
    messageReported: value.messageReported === true,
  };
}

interface ParsedReport {
  reportId: string;
  kind: ReportKind;
  reason: string | null;
  comment: string;
  subject: string;
  /** Chat reports: the evidence in the 1.19.3+ form, or in the 1.19.1-1.19.2 one (legacy). */
  chat: { legacy: false; messages: EvidenceMessage[] } | { legacy: true; messages: LegacyMessage[] };
  skinUrl: string | null;
  client: { version: string | null; locale: string | null };
  server: string | null;
  realm: boolean;
}

const shortText = (value: unknown, max = 200) => (typeof value === 'string' ? value.slice(0, max) : null);

/** Checks a report as the game (1.19.1+) sends it; anything else is malformed. */
export function parseReport(body: unknown): ParsedReport {
  if (!isObject(body)) throw malformed('the body must be a JSON object');
  const kind = typeof body.reportType === 'string' ? REPORT_TYPES[body.reportType as keyof typeof REPORT_TYPES] : undefined;
  if (!kind) throw malformed('reportType must be CHAT, USERNAME or SKIN');
  const report = body.report;
  if (!isObject(report)) throw malformed('report must be an object');
  const comment = report.opinionComments ?? '';
  if (typeof comment !== 'string' || comment.length > MAX_COMMENT)
    throw malformed(`opinionComments must be text of at most ${MAX_COMMENT} characters`);
  let reason: string | null = null;
  if (kind !== 'name' || report.reason !== undefined) {
    if (typeof report.reason !== 'string' || !(REPORT_REASONS as readonly string[]).includes(report.reason))
      throw malformed(`reason must be one of ${REPORT_REASONS.join(', ')}`);
    reason = report.reason;
  }
  if (!isObject(report.reportedEntity)) throw malformed('reportedEntity must be an object');
  const subject = uuidField(report.reportedEntity.profileId, 'reportedEntity.profileId');
  let chat: ParsedReport['chat'] = { legacy: false, messages: [] };
  if (kind === 'chat') {
    const evidence = report.evidence;
    if (!isObject(evidence) || !Array.isArray(evidence.messages)) throw malformed('a chat report needs evidence.messages');
    if (evidence.messages.length === 0 || evidence.messages.length > MAX_EVIDENCE)
      throw malformed(`evidence.messages must hold 1 to ${MAX_EVIDENCE} messages`);
    chat = evidence.messages.some((message) => isObject(message) && 'header' in message)
      ? { legacy: true, messages: evidence.messages.map(parseLegacyMessage) }
      : { legacy: false, messages: evidence.messages.map(parseMessage) };
    const reported = (chat.messages as { profileId: string; messageReported: boolean }[]).filter((message) => message.messageReported);
    if (reported.length === 0 || reported.length > MAX_REPORTED) throw malformed(`1 to ${MAX_REPORTED} messages must be reported`);
    if (reported.some((message) => message.profileId !== subject)) throw malformed('a reported message must be the reported player’s');
  }
  const client = isObject(body.clientInfo) ? body.clientInfo : {};
  const server = isObject(body.thirdPartyServerInfo) ? shortText(body.thirdPartyServerInfo.address, 300) : null;
  return {
    reportId: uuidField(body.id, 'id').replace(/-/g, ''),
    kind,
    reason,
    comment,
    subject,
    chat,
    skinUrl: kind === 'skin' ? shortText(report.skinUrl, 500) : null,
    client: { version: shortText(client.clientVersion, 100), locale: shortText(client.locale, 20) },
    server,
    realm: isObject(body.realmInfo),
  };
}

type ReportRow = Awaited<ReturnType<ReturnType<typeof reportRows>['execute']>>[number];
const reportRows = (db: Executor) =>
  db
    .selectFrom('game_reports')
    .leftJoin('profiles', 'profiles.id', 'game_reports.subject_profile_id')
    .selectAll('game_reports')
    .select('profiles.name as current_name')
    .orderBy('game_reports.id', 'desc');

export class GameReports {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly players: { byUuid(uuid: string): Promise<PlayerWearing | null> },
    private readonly bans: Bans,
    private readonly forced: ForcedActions,
    private readonly mailQueued: () => void,
  ) {}

  /** POST player/report: checks, verifies and stores the report; nothing is stored when it is refused. */
  async submit(caller: Caller, body: unknown): Promise<GameReport> {
    if (!caller.profile)
      throw new GameServiceError(403, 'ForbiddenOperationException', 'This access token is bound to no profile', REPORT_PATH);
    const parsed = parseReport(body);
    const subject = await this.players.byUuid(parsed.subject);
    if (!subject) throw refuse(404, 'The reported player is not known here');
    if (subject.userId === caller.user.id) throw refuse(400, 'A player cannot report themselves');

    const keys = new Map<string, CertifiedKey[]>();
    const chat = parsed.chat;
    for (const profileId of new Set(chat.messages.map((message) => message.profileId)))
      keys.set(profileId, await certifiedKeysOf(this.db, profileId));
    const keysOf = (profileId: string) => keys.get(profileId) ?? [];
    const checks = chat.legacy ? checkLegacyMessages(chat.messages, keysOf) : checkMessages(chat.messages, keysOf);
    const evidence: ReportEvidence = {
      ...(parsed.kind === 'chat' && {
        messages: chat.legacy
          ? storedLegacyMessages(chat.messages, checks)
          : chat.messages.map((message, at) => ({ ...message, salt: message.salt.toString(), ...checks[at]! })),
      }),
      ...(parsed.kind === 'skin' && { skinUrl: parsed.skinUrl, skin: subject.skin, cape: subject.cape }),
      client: parsed.client,
      server: parsed.server,
      realm: parsed.realm,
    };
    const attestation = parsed.kind === 'chat' ? attestationOf(chat.messages, checks) : null;
    const now = this.clock.now();
    const id = await this.db.transaction().execute(async (trx) => {
      const recent = await trx
        .selectFrom('game_reports')
        .select(['created_at'])
        .where('reporter_id', '=', caller.user.id)
        .where('created_at', '>', now - DAY_MS)
        .orderBy('created_at')
        .execute();
      if (recent.length >= REPORTS_PER_DAY) {
        const retry = Math.ceil((Number(recent[0]!.created_at) + DAY_MS - now) / 1000);
        const error = new GameServiceError(
          429,
          'TOO_MANY_REQUESTS',
          `You sent ${REPORTS_PER_DAY} reports in the last 24 hours: try again later`,
          REPORT_PATH,
        );
        Object.assign(error.headers, { 'retry-after': String(Math.max(1, retry)) });
        throw error;
      }
      const inserted = await trx
        .insertInto('game_reports')
        .values({
          report_id: parsed.reportId,
          kind: parsed.kind,
          reporter_id: caller.user.id,
          reporter_uuid: caller.profile!.uuid,
          reporter_name: caller.profile!.name,
          subject_profile_id: subject.profileId,
          subject_uuid: subject.uuid,
          subject_name: subject.username,
          reason: parsed.reason,
          comment: parsed.comment,
          evidence: JSON.stringify(evidence),
          attestation,
          state: 'open',
          created_at: now,
          closed_at: null,
          closed_by_name: null,
          closing_action: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return inserted.id;
    });
    return this.one(id);
  }

  /** The open reports (oldest first: the queue's order) or the closed ones (newest first), at most 200. */
  async list(state: 'open' | 'closed'): Promise<GameReport[]> {
    const base = reportRows(this.db);
    const rows =
      state === 'open'
        ? await base.where('game_reports.state', '=', 'open').clearOrderBy().orderBy('game_reports.id').limit(200).execute()
        : await base.where('game_reports.state', '!=', 'open').limit(200).execute();
    return rows.map(toReport);
  }

  async one(id: number): Promise<GameReport> {
    const row = await reportRows(this.db).where('game_reports.id', '=', id).executeTakeFirst();
    if (!row) throw notFound('gameReports.noSuchReport', { id });
    return toReport(row);
  }

  /**
   * Closes an open report with an action on the reported profile: dismiss (nothing), warn (a mail in the player's
   * language), ban from multiplayer until `expires` or ban the account (Bans, with its level rules and mails), force a
   * rename, block the skin. Audited as game_report.close with the action.
   */
  async act(acting: Acting, id: number, input: ActionInput): Promise<GameReport> {
    const report = await this.one(id);
    if (report.state !== 'open') throw conflict('gameReports.closed');
    const subject = input.action === 'dismiss' ? null : await this.players.byUuid(report.subject.uuid);
    if (input.action !== 'dismiss' && !subject) throw notFound('gameReports.subjectGone');
    const message = input.message?.trim() || undefined;
    const now = this.clock.now();
    const close = async (trx: Executor) => {
      const closed = await trx
        .updateTable('game_reports')
        .set({
          state: input.action === 'dismiss' ? 'dismissed' : 'actioned',
          closed_at: now,
          closed_by_name: acting.actor.name,
          closing_action: input.action,
        })
        .where('id', '=', id)
        .where('state', '=', 'open')
        .executeTakeFirst();
      if (Number(closed.numUpdatedRows) === 0) throw conflict('gameReports.closed');
      await recordAudit(trx, now, {
        actor: acting.actor,
        action: 'game_report.close',
        target: subject?.userId ?? null,
        details: { report: id, kind: report.kind, action: input.action, subject: report.subject.uuid },
      });
    };
    switch (input.action) {
      case 'ban_multiplayer':
      case 'ban_account': {
        if (!input.reason || !BAN_REASONS.includes(input.reason)) throw badRequest('gameReports.banNeedsReason', { field: 'reason' });
        if (input.action === 'ban_multiplayer' && input.expires === undefined)
          throw badRequest('gameReports.banNeedsEnd', { field: 'expires' });
        await this.bans.create(acting, String(subject!.userId), {
          scope: input.action === 'ban_account' ? 'account' : 'multiplayer',
          reason: input.reason,
          ...(message !== undefined && { message }),
          ...(input.action === 'ban_multiplayer' && { expires: input.expires }),
        });
        await this.db.transaction().execute(close);
        break;
      }
      case 'force_rename':
      case 'block_skin':
        await this.db.transaction().execute(async (trx) => {
          await this.forced.force(acting, subject!.uuid, input.action === 'force_rename' ? 'FORCED_NAME_CHANGE' : 'USING_BANNED_SKIN', trx);
          await close(trx);
        });
        break;
      case 'warn':
        if (!acting.operator && subject!.standing.level >= acting.level) throw forbidden('forcedActions.targetLevel');
        await this.db.transaction().execute(async (trx) => {
          const user = await trx
            .selectFrom('users')
            .select(['mail', 'username'])
            .where('id', '=', subject!.userId)
            .executeTakeFirstOrThrow();
          const language = await languageOfUser(trx, subject!.userId);
          await queueMail(
            trx,
            now,
            user.mail,
            reportWarningMessage(language, { name: subject!.username, kind: report.kind, message: message ?? null }),
          );
          await close(trx);
        });
        this.mailQueued();
        break;
      case 'dismiss':
        await this.db.transaction().execute(close);
        break;
    }
    return this.one(id);
  }
}

/** A moderator level is needed to see and close reports; bans need an admin (Bans checks it again). */
export const mayBan = (acting: Acting) => acting.operator || acting.permanentLevel >= LEVELS.admin;

function toReport(row: ReportRow): GameReport {
  const evidence = JSON.parse(row.evidence) as ReportEvidence;
  return {
    id: row.id,
    kind: row.kind as ReportKind,
    reportId: row.report_id,
    reporter: { uuid: row.reporter_uuid, name: row.reporter_name },
    subject: { uuid: row.subject_uuid, name: row.subject_name, currentName: row.current_name },
    reason: row.reason,
    comment: row.comment,
    attestation: row.attestation as Attestation | null,
    failed: (evidence.messages ?? []).flatMap((message, at) => (message.verified ? [] : [at])),
    evidence,
    state: row.state as GameReport['state'],
    created: Math.floor(Number(row.created_at) / 1000),
    closed: row.closed_at === null ? null : Math.floor(Number(row.closed_at) / 1000),
    closedBy: row.closed_by_name,
    action: row.closing_action as ReportAction | null,
  };
}
