// Reports from the game (contract section 24): the chat, name and skin reports players sent from the game, with the
// reported messages in order and whether each verified against the sender's certified chat key, and the actions that
// close one: dismiss, warn by mail, force a rename, block the skin; admins also ban from multiplayer for a time or
// ban the account. Its own console section until the "Reports" section shows it beside the library's reports.
import { useEffect, useState } from 'preact/hooks';
import { api } from '../../api.ts';
import { LEVELS } from '../../../../src/shared/levels.ts';
import { BAN_REASONS } from '../../../../src/shared/ban-reasons.ts';
import { Notice, messageOf, useAction } from '../../components.tsx';
import { dateTime, useT } from '../../i18n.ts';
import './game-reports.css';

/** A game report as GET /api/admin/game-reports answers it (src/standing/game-reports.ts GameReport). */
interface GameReport {
  id: number;
  kind: 'chat' | 'name' | 'skin';
  reporter: { uuid: string; name: string };
  subject: { uuid: string; name: string; currentName: string | null };
  reason: string | null;
  comment: string;
  attestation: 'full' | 'partial' | 'none' | null;
  failed: number[];
  evidence: {
    /** format legacy: a 1.19.1-1.19.2 message; its message is null when the report sent only its header. */
    messages?: {
      message: string | null;
      profileId: string;
      timestamp: number | null;
      messageReported: boolean;
      verified: boolean;
      problem: string | null;
    }[];
    skin?: { digest: string } | null;
    server?: string | null;
  };
  state: 'open' | 'dismissed' | 'actioned';
  created: number;
  closed: number | null;
  closedBy: string | null;
  action: string | null;
}

type Action = 'dismiss' | 'warn' | 'force_rename' | 'block_skin' | 'ban_multiplayer' | 'ban_account';
const MODERATOR_ACTIONS: Action[] = ['dismiss', 'warn', 'force_rename', 'block_skin'];
const ADMIN_ACTIONS: Action[] = ['ban_multiplayer', 'ban_account'];
/** Durations offered for a ban from multiplayer, in days. */
const BAN_DAYS = [1, 3, 7, 30, 90];

export function GameReportsSection(props: { level: number }) {
  const t = useT();
  const [state, setState] = useState<'open' | 'closed'>('open');
  const [reports, setReports] = useState<GameReport[] | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  // Said here, not in the report's form: the closed report leaves the list, and its form with it.
  const [done, setDone] = useState<string | null>(null);
  const load = () =>
    api.get<GameReport[]>('/api/admin/game-reports', { state }).then(
      (reply) => {
        setReports(reply.data);
        setFailure(null);
      },
      (error) => setFailure(messageOf(error)),
    );
  useEffect(() => {
    setReports(null);
    setDone(null);
    void load();
  }, [state]);
  return (
    <section aria-labelledby="game-reports-heading" class="game-reports">
      <h2 id="game-reports-heading">{t('admin:tabs.gameReports')}</h2>
      <p class="muted">{t('admin:gameReports.intro')}</p>
      <div role="group" aria-label={t('admin:gameReports.which')} class="button-row">
        {(['open', 'closed'] as const).map((which) => (
          <button
            type="button"
            key={which}
            class={state === which ? '' : 'secondary'}
            aria-pressed={state === which}
            onClick={() => setState(which)}
          >
            {t(`admin:gameReports.state.${which}`)}
          </button>
        ))}
      </div>
      {failure && <Notice kind="error">{failure}</Notice>}
      {done && <Notice kind="ok">{done}</Notice>}
      {reports?.length === 0 && <p class="muted">{t(`admin:gameReports.none.${state}`)}</p>}
      {reports?.map((report) => (
        <ReportCard
          key={report.id}
          report={report}
          level={props.level}
          onClosed={async (note) => {
            setDone(note);
            await load();
          }}
        />
      ))}
    </section>
  );
}

function ReportCard(props: { report: GameReport; level: number; onClosed: (note: string) => Promise<void> }) {
  const t = useT();
  const { report } = props;
  const headingId = `game-report-${report.id}`;
  return (
    <article class="game-report" aria-labelledby={headingId}>
      <h3 id={headingId}>{t(`admin:gameReports.kind.${report.kind}`, { name: report.subject.name, reporter: report.reporter.name })}</h3>
      <p class="muted">
        {dateTime(report.created)}
        {report.reason && ` · ${t(`admin:gameReports.reportReasons.${report.reason}`, { defaultValue: report.reason })}`}
        {report.evidence.server && ` · ${report.evidence.server}`}
        {report.subject.currentName !== null &&
          report.subject.currentName !== report.subject.name &&
          ` · ${t('admin:gameReports.nowNamed', { name: report.subject.currentName })}`}
      </p>
      {report.comment && <blockquote>{report.comment}</blockquote>}
      {report.attestation && (
        <p>
          <strong class={report.attestation === 'full' ? '' : 'danger'}>{t(`admin:gameReports.attestation.${report.attestation}`)}</strong>
        </p>
      )}
      {report.evidence.messages && (
        <ol class="game-report-messages" aria-label={t('admin:gameReports.messages')}>
          {report.evidence.messages.map((message, at) => (
            <li key={at} class={message.messageReported ? 'reported' : ''}>
              <span class={message.verified ? 'verified' : 'danger'}>
                {message.verified ? t('admin:gameReports.verified') : t(`admin:gameReports.problem.${message.problem ?? 'unsigned'}`)}
              </span>{' '}
              {message.messageReported && <strong>{t('admin:gameReports.reported')} </strong>}
              {message.message === null ? <span class="muted">{t('admin:gameReports.headerOnly')}</span> : <q>{message.message}</q>}
            </li>
          ))}
        </ol>
      )}
      {report.kind === 'skin' && report.evidence.skin && (
        <p>
          <a href={`/textures/${report.evidence.skin.digest}`}>{t('admin:gameReports.skinFile')}</a>
        </p>
      )}
      {report.state === 'open' ? (
        <ActionForm report={report} level={props.level} onClosed={props.onClosed} />
      ) : (
        <p class="muted">
          {t('admin:gameReports.closedBy', {
            action: t(`admin:gameReports.actions.${report.action ?? 'dismiss'}`),
            name: report.closedBy ?? '',
            when: dateTime(report.closed ?? report.created),
          })}
        </p>
      )}
    </article>
  );
}

function ActionForm(props: { report: GameReport; level: number; onClosed: (note: string) => Promise<void> }) {
  const t = useT();
  const action = useAction();
  const actions = props.level >= LEVELS.admin ? [...MODERATOR_ACTIONS, ...ADMIN_ACTIONS] : MODERATOR_ACTIONS;
  const [chosen, setChosen] = useState<Action>('dismiss');
  const [reason, setReason] = useState<string>('GENERIC_VIOLATION');
  const [days, setDays] = useState(7);
  const [message, setMessage] = useState('');
  const id = props.report.id;
  const banning = chosen === 'ban_multiplayer' || chosen === 'ban_account';
  const submit = (event: Event) => {
    event.preventDefault();
    void action.run(async () => {
      await api.post(`/api/admin/game-reports/${id}/actions`, {
        action: chosen,
        ...(banning && { reason }),
        ...(message.trim() && (banning || chosen === 'warn') && { message: message.trim() }),
        ...(chosen === 'ban_multiplayer' && { expires: Math.floor(Date.now() / 1000) + days * 86400 }),
      });
      await props.onClosed(t('admin:gameReports.done'));
    });
  };
  return (
    <form onSubmit={submit} class="game-report-actions" aria-label={t('admin:gameReports.actionsLabel')}>
      <label>
        {t('admin:gameReports.action')}
        <select name="action" value={chosen} onChange={(event) => setChosen((event.target as HTMLSelectElement).value as Action)}>
          {actions.map((candidate) => (
            <option value={candidate} key={candidate}>
              {t(`admin:gameReports.actions.${candidate}`)}
            </option>
          ))}
        </select>
      </label>
      {banning && (
        <label>
          {t('admin:gameReports.banReason')}
          <select name="reason" value={reason} onChange={(event) => setReason((event.target as HTMLSelectElement).value)}>
            {BAN_REASONS.map((candidate) => (
              <option value={candidate} key={candidate}>
                {t(`admin:gameReports.banReasons.${candidate}`)}
              </option>
            ))}
          </select>
        </label>
      )}
      {chosen === 'ban_multiplayer' && (
        <label>
          {t('admin:gameReports.duration')}
          <select name="days" value={days} onChange={(event) => setDays(Number((event.target as HTMLSelectElement).value))}>
            {BAN_DAYS.map((count) => (
              <option value={count} key={count}>
                {t('admin:gameReports.days', { count })}
              </option>
            ))}
          </select>
        </label>
      )}
      {(banning || chosen === 'warn') && (
        <label>
          {t('admin:gameReports.message')}
          <textarea
            name="message"
            maxLength={500}
            rows={2}
            value={message}
            onInput={(event) => setMessage((event.target as HTMLTextAreaElement).value)}
          />
        </label>
      )}
      <button type="submit" class={chosen === 'dismiss' ? 'secondary' : 'danger'} disabled={action.busy}>
        {t(`admin:gameReports.actions.${chosen}`)}
      </button>
      {action.outcome}
    </form>
  );
}
