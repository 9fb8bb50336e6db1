// Reports: the library's moderation queue (contract section 19). Moderators dismiss a report or unpublish the entry;
// admins also remove the picture from every wardrobe, block it or ban its owner, each asked in the page with a reason.
// Below it the reports the game sent (chat, names, skins; contract section 24), then the review queue
// (LIBRARY_REVIEW=true): pending entries to approve or refuse.
import { useState } from 'preact/hooks';
import { api } from '../../api.ts';
import { LEVELS } from '../../../../src/shared/levels.ts';
import { Notice, useAction } from '../../components.tsx';
import { ReasonConfirmation, type ReasonAnswer } from '../../editing.tsx';
import { dateTime, useT } from '../../i18n.ts';
import { Link } from '../../router.tsx';
import { usePagedList } from '../../table.tsx';
import { GameReportsSection } from './game-reports.tsx';
import { plainMessage } from './names.tsx';

type Action = 'dismiss' | 'unpublish' | 'remove_everywhere' | 'block_digest' | 'ban_owner';
const MODERATOR_ACTIONS: Action[] = ['dismiss', 'unpublish'];
const ADMIN_ACTIONS: Action[] = ['remove_everywhere', 'block_digest', 'ban_owner'];

interface Person {
  uuid: string;
  name: string;
}

interface ReportRecord {
  id: number;
  state: 'open' | 'dismissed' | 'actioned';
  reason: 'inappropriate' | 'copyright' | 'other';
  message: string;
  created: number;
  closed: number | null;
  closed_by: string | null;
  action: Action | null;
  action_reason: string | null;
  reporter: Person | null;
  entry: { id: number; kind: 'skin' | 'cape'; name: string; digest: string; state: string; owner: Person } | null;
  history: { id: number; state: string }[];
}

interface PendingEntry {
  id: number;
  kind: 'skin' | 'cape';
  name: string;
  description: string;
  source: string;
  digest: string;
  owner: Person;
  created: number;
}

/** The picture itself from this site (the records' `url` names the public address, which may be another origin). */
const textureFile = (digest: string) => `/textures/${digest}`;

const userHref = (person: Person) => `/admin?tab=users&user=${encodeURIComponent(person.uuid || person.name)}`;

export function ReportsSection(props: { level: number }) {
  const t = useT();
  const [state, setState] = useState<'open' | 'closed'>('open');
  const list = usePagedList<ReportRecord>('/api/admin/reports', { kind: 'library', state });
  // One outcome for the list: the item acted on leaves it when the list reloads, its message stays.
  const action = useAction();
  return (
    <>
      <section aria-labelledby="reports-heading">
        <h2 id="reports-heading">{t('admin:reports.heading')}</h2>
        <div class="field">
          <label for="reports-state">{t('admin:reports.show')}</label>
          <select id="reports-state" value={state} onChange={(event) => setState(event.currentTarget.value as 'open' | 'closed')}>
            <option value="open">{t('admin:reports.open')}</option>
            <option value="closed">{t('admin:reports.closed')}</option>
          </select>
        </div>
        {list.error && <Notice kind="error">{plainMessage(list.error)}</Notice>}
        {action.outcome}
        {list.rows?.length === 0 && <p class="muted">{t(state === 'open' ? 'admin:reports.noneOpen' : 'admin:reports.noneClosed')}</p>}
        <ul class="items admin-reports">
          {(list.rows ?? []).map((report) => (
            <ReportItem key={report.id} report={report} level={props.level} action={action} onChanged={list.reload} />
          ))}
        </ul>
        {list.pager}
      </section>
      <GameReportsSection level={props.level} />
      <ReviewQueue />
    </>
  );
}

function ReportItem(props: { report: ReportRecord; level: number; action: ReturnType<typeof useAction>; onChanged: () => void }) {
  const t = useT();
  const { action } = props;
  const [asking, setAsking] = useState<Action | null>(null);
  const { report } = props;
  const entry = report.entry;
  const name = entry?.name ?? t('admin:reports.entryGone');
  const actions = report.state !== 'open' ? [] : [...MODERATOR_ACTIONS, ...(props.level >= LEVELS.admin ? ADMIN_ACTIONS : [])];
  const take = (chosen: Action, reason: string) =>
    action.run(async () => {
      try {
        await api.post(`/api/admin/reports/${report.id}/actions`, { action: chosen, ...(reason ? { reason } : {}) });
        return t(`admin:reports.done.${chosen}`, { name });
      } catch (error) {
        throw new Error(plainMessage(error));
      } finally {
        props.onChanged();
      }
    });
  return (
    <li aria-label={t('admin:reports.item', { name })}>
      {entry && <img class="texture" src={textureFile(entry.digest)} alt="" width={64} height={entry.kind === 'cape' ? 32 : 64} />}
      <div class="grow">
        <strong>{name}</strong>
        <small>
          {entry && (
            <>
              {t(`admin:reports.kind.${entry.kind}`)} · {t('admin:reports.by')} <Link href={userHref(entry.owner)}>{entry.owner.name}</Link>
              {entry.state !== 'public' && ` · ${t(`admin:reports.entryState.${entry.state}`)}`}
              {' · '}
            </>
          )}
          {t('admin:reports.reportedBy')}{' '}
          {report.reporter ? <Link href={userHref(report.reporter)}>{report.reporter.name}</Link> : t('admin:users.deleted')} ·{' '}
          {dateTime(report.created)}
        </small>
        <p>
          <strong>{t(`admin:reports.reason.${report.reason}`)}</strong>
          {report.message && `: ${report.message}`}
        </p>
        {report.history.length > 0 && <small>{t('admin:reports.others', { count: report.history.length })}</small>}
        {report.state !== 'open' && (
          <small>
            {t(`admin:reports.closedWith.${report.action ?? 'dismiss'}`, {
              by: report.closed_by ?? '',
              when: dateTime(report.closed ?? 0),
            })}
            {report.action_reason && ` — ${report.action_reason}`}
          </small>
        )}
        {asking && (
          <ActionQuestion
            id={`report-${report.id}`}
            action={asking}
            name={name}
            owner={entry?.owner.name ?? ''}
            onCancel={() => setAsking(null)}
            onConfirm={(reason) => {
              setAsking(null);
              void take(asking, reason);
            }}
          />
        )}
      </div>
      {actions.length > 0 && (
        <div class="actions">
          {actions.map((candidate) => (
            <button
              key={candidate}
              type="button"
              class={candidate === 'dismiss' ? 'secondary small' : 'danger small'}
              disabled={action.busy}
              aria-label={t(`admin:reports.actionNamed.${candidate}`, { name })}
              onClick={() => (candidate === 'dismiss' ? void take('dismiss', '') : setAsking(candidate))}
            >
              {t(`admin:reports.action.${candidate}`)}
            </button>
          ))}
        </div>
      )}
    </li>
  );
}

/** The question before an action that changes the entry, with an optional reason (kept with the report, mailed). */
function ActionQuestion(props: ReasonAnswer & { id: string; action: Action; name: string; owner: string }) {
  const t = useT();
  return (
    <ReasonConfirmation
      fieldId={`${props.id}-reason`}
      label={t(`admin:reports.actionNamed.${props.action}`, { name: props.name })}
      confirmLabel={t(`admin:reports.action.${props.action}`)}
      reasonLabel={t('admin:reports.reasonLabel')}
      tooLongMessage={t('admin:reports.reasonTooLong')}
      onConfirm={props.onConfirm}
      onCancel={props.onCancel}
    >
      {t(`admin:reports.question.${props.action}`, { name: props.name, owner: props.owner })}
    </ReasonConfirmation>
  );
}

/** Entries waiting for a moderator's decision (LIBRARY_REVIEW=true); empty, and saying so, without review. */
function ReviewQueue() {
  const t = useT();
  const list = usePagedList<PendingEntry>('/api/admin/library', { state: 'pending' });
  const action = useAction();
  const [refusing, setRefusing] = useState<number | null>(null);
  const decide = (entry: PendingEntry, state: 'public' | 'refused', reason = '') =>
    action.run(async () => {
      try {
        await api.patch(`/api/admin/library/${entry.id}`, { state, ...(reason ? { reason } : {}) });
        return t(state === 'public' ? 'admin:review.approved' : 'admin:review.refused', { name: entry.name });
      } catch (error) {
        throw new Error(plainMessage(error));
      } finally {
        list.reload();
      }
    });
  return (
    <section aria-labelledby="review-heading">
      <h2 id="review-heading">{t('admin:review.heading')}</h2>
      {list.error && <Notice kind="error">{plainMessage(list.error)}</Notice>}
      {action.outcome}
      {list.rows?.length === 0 && <p class="muted">{t('admin:review.none')}</p>}
      <ul class="items admin-reports">
        {(list.rows ?? []).map((entry) => (
          <li key={entry.id} aria-label={t('admin:review.item', { name: entry.name })}>
            <img class="texture" src={textureFile(entry.digest)} alt="" width={64} height={entry.kind === 'cape' ? 32 : 64} />
            <div class="grow">
              <strong>{entry.name}</strong>
              <small>
                {t(`admin:reports.kind.${entry.kind}`)} · {t('admin:reports.by')}{' '}
                <Link href={userHref(entry.owner)}>{entry.owner.name}</Link> · {t(`admin:review.source.${entry.source}`)} ·{' '}
                {dateTime(entry.created)}
              </small>
              {entry.description && <p>{entry.description}</p>}
              {refusing === entry.id && (
                <ActionQuestionRefuse
                  id={`review-${entry.id}`}
                  name={entry.name}
                  onCancel={() => setRefusing(null)}
                  onConfirm={(reason) => {
                    setRefusing(null);
                    void decide(entry, 'refused', reason);
                  }}
                />
              )}
            </div>
            <div class="actions">
              <button
                type="button"
                class="small"
                disabled={action.busy}
                aria-label={t('admin:review.approveNamed', { name: entry.name })}
                onClick={() => void decide(entry, 'public')}
              >
                {t('admin:review.approve')}
              </button>
              <button
                type="button"
                class="danger small"
                disabled={action.busy}
                aria-label={t('admin:review.refuseNamed', { name: entry.name })}
                onClick={() => setRefusing(entry.id)}
              >
                {t('admin:review.refuse')}
              </button>
            </div>
          </li>
        ))}
      </ul>
      {list.pager}
    </section>
  );
}

function ActionQuestionRefuse(props: ReasonAnswer & { id: string; name: string }) {
  const t = useT();
  return (
    <ReasonConfirmation
      fieldId={`${props.id}-reason`}
      label={t('admin:review.refuseNamed', { name: props.name })}
      confirmLabel={t('admin:review.refuse')}
      reasonLabel={t('admin:review.reasonLabel')}
      tooLongMessage={t('admin:reports.reasonTooLong')}
      onConfirm={props.onConfirm}
      onCancel={props.onCancel}
    >
      {t('admin:review.refuseQuestion', { name: props.name })}
    </ReasonConfirmation>
  );
}
