// The console's first view (issue 14, item 9): the site at a glance, for moderators and up. Figures in words and
// rounded sizes; the newest audit entries with the names of the people they are about.
import { useEffect, useState } from 'preact/hooks';
import type { Dashboard, DashboardAuditEntry } from '../../../../src/http/shapes/dashboard.ts';
import { api } from '../../api.ts';
import { Notice, messageOf } from '../../components.tsx';
import { dateTime, formatNumber, formatSize, Rich, useT } from '../../i18n.ts';
import { Link } from '../../router.tsx';
import { activityLabel, actorName } from './audit-sentences.ts';
import { UserLink } from './names.tsx';
import { modeWords } from './registration.tsx';
import './console-overview.css';

function Entry(props: { entry: DashboardAuditEntry }) {
  const t = useT();
  const { entry } = props;
  // Named only when the entry is about someone other than who acted.
  const about = entry.for > 0 && entry.for_name !== '' && entry.for !== entry.iss_id;
  const params = { actor: '<actor>-</actor>', action: activityLabel(entry.action), subject: '<subject>-</subject>' };
  return (
    <li>
      <time dateTime={new Date(entry.time * 1000).toISOString()}>{dateTime(entry.time)}</time>
      <Rich
        text={t(about ? 'admin:dashboard.entryAbout' : 'admin:dashboard.entry', params)}
        parts={{
          actor: () => <strong>{actorName(entry)}</strong>,
          subject: () => <UserLink id={entry.for} name={entry.for_name} />,
        }}
      />
    </li>
  );
}

export function DashboardSection() {
  const t = useT();
  const [figures, setFigures] = useState<Dashboard | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    api.get<Dashboard>('/api/admin/dashboard').then(
      (reply) => setFigures(reply.data),
      (failure) => setError(messageOf(failure)),
    );
  }, []);
  if (error) return <Notice kind="error">{error}</Notice>;
  if (!figures) return <p>{t('admin:loading')}</p>;
  const { accounts, skins, capes, mail, broadcast } = figures;
  return (
    <section aria-label={t('admin:dashboard.label')}>
      <div class="figures">
        <section class="card" aria-labelledby="dash-accounts">
          <h2 id="dash-accounts">{t('admin:dashboard.accounts')}</h2>
          <p class="figure">{formatNumber(accounts.total)}</p>
          <dl>
            <dt>{t('admin:dashboard.newThisWeek')}</dt>
            <dd>{formatNumber(accounts.new_this_week)}</dd>
            <dt>{t('admin:dashboard.unconfirmed')}</dt>
            <dd>{formatNumber(accounts.unverified)}</dd>
            <dt>{t('admin:dashboard.banned')}</dt>
            <dd>{formatNumber(accounts.banned)}</dd>
          </dl>
        </section>
        <section class="card" aria-labelledby="dash-skins">
          <h2 id="dash-skins">{t('admin:dashboard.skins')}</h2>
          <p class="figure">{formatNumber(skins.count)}</p>
          <p class="muted">{t('admin:dashboard.stored', { size: formatSize(skins.bytes) })}</p>
        </section>
        <section class="card" aria-labelledby="dash-capes">
          <h2 id="dash-capes">{t('admin:dashboard.capes')}</h2>
          <p class="figure">{formatNumber(capes.count)}</p>
          <p class="muted">{t('admin:dashboard.stored', { size: formatSize(capes.bytes) })}</p>
        </section>
        <section class="card" aria-labelledby="dash-mail">
          <h2 id="dash-mail">{t('admin:dashboard.mail')}</h2>
          <p class="figure">{formatNumber(mail.queued)}</p>
          <p class="muted">{t('admin:dashboard.waiting', { count: mail.queued })}</p>
          <dl>
            <dt>{t('admin:dashboard.givenUp')}</dt>
            <dd class={mail.failed > 0 ? 'danger' : undefined}>{formatNumber(mail.failed)}</dd>
          </dl>
          {broadcast && <p>{t('admin:dashboard.broadcast', { subject: broadcast.subject, count: broadcast.queued })}</p>}
        </section>
        <section class="card" aria-labelledby="dash-registration">
          <h2 id="dash-registration">{t('admin:dashboard.registration')}</h2>
          <p class="figure word">{modeWords(figures.registration).short}</p>
          <p class="muted">{modeWords(figures.registration).long}</p>
          <Link href="/admin?tab=registration">{t('admin:dashboard.registrationLink')}</Link>
        </section>
      </div>
      <section class="card" aria-labelledby="dash-activity">
        <h2 id="dash-activity">{t('admin:dashboard.activity')}</h2>
        {figures.audit.length === 0 ? (
          <p class="muted">{t('admin:dashboard.nothing')}</p>
        ) : (
          <ol class="activity">
            {figures.audit.map((entry) => (
              <Entry key={entry.id} entry={entry} />
            ))}
          </ol>
        )}
        <p>
          <Link href="/admin?tab=audit">{t('admin:dashboard.wholeLog')}</Link>
        </p>
      </section>
    </section>
  );
}
