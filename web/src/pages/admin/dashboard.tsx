// The console's first view (issue 14, item 9): the site at a glance, for moderators and up. Figures in words and
// rounded sizes; the newest audit entries with the names of the people they are about.
import { useEffect, useState } from 'preact/hooks';
import type { Dashboard, DashboardAuditEntry } from '../../../../src/http/shapes/dashboard.ts';
import { api } from '../../api.ts';
import { Notice, messageOf } from '../../components.tsx';
import { Link } from '../../router.tsx';
import { MODE_WORDS } from './registration.tsx';
import './console-overview.css';

const plural = (count: number, one: string, many = `${one}s`) => `${count.toLocaleString('en')} ${count === 1 ? one : many}`;

/** A size as people read it: 0 bytes, 812 bytes, 14 kB, 5.4 MB, 1.2 GB. */
export function readableSize(bytes: number): string {
  if (bytes < 1000) return plural(bytes, 'byte');
  const units = ['kB', 'MB', 'GB', 'TB'];
  let value = bytes / 1000;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`;
}

export const when = (seconds: number) =>
  new Date(seconds * 1000).toLocaleString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' });

/** What an audit action means, in words; an action not named here shows as recorded. */
const ACTIONS: Record<string, string> = {
  'auth.register': 'started registering',
  'auth.confirm_mail': 'confirmed the mail address',
  'auth.register_finish': 'finished registering',
  'auth.login_failures': 'many failed logins',
  'auth.password_reset_request': 'asked for a password reset',
  'auth.password_reset': 'reset the password',
  'user.create': 'created an account',
  'user.update': 'changed a user',
  'user.delete': 'deleted the account',
  'user.password_change': 'changed the password',
  'user.mail_change': 'changed the mail address',
  'user.select_textures': 'chose what to wear',
  'user.take_off': 'took off a skin or cape',
  'user.logout_everywhere': 'logged out everywhere',
  'role.grant': 'granted a role',
  'role.revoke': 'took back a role',
  'role.expire': 'a role ran out',
  'skin.upload': 'uploaded a skin',
  'skin.update': 'changed a skin',
  'skin.delete': 'deleted a skin',
  'skin.moderate_delete': 'removed a skin',
  'cape.upload': 'uploaded a cape',
  'cape.delete': 'deleted a cape',
  'cape.assign': 'gave capes',
  'mail.broadcast': 'mailed everyone',
  'mail.broadcast_progress': 'mail to everyone: progress',
  'mail.broadcast_queued': 'mail to everyone: all queued',
  'mail.failed': 'a mail could not be delivered',
  'discord.link': 'linked a Discord account',
  'discord.unlink': 'unlinked a Discord account',
  'registration.mode': 'changed who may register',
  'invite.create': 'created an invitation',
  'invite.revoke': 'withdrew an invitation',
  'invite.use': 'registered with an invitation',
};

function Entry(props: { entry: DashboardAuditEntry }) {
  const { entry } = props;
  // Named only when the entry is about someone other than who acted.
  const about = entry.for > 0 && entry.for_name !== '' && entry.for !== entry.iss_id;
  return (
    <li>
      <time dateTime={new Date(entry.time * 1000).toISOString()}>{when(entry.time)}</time>
      <strong>{entry.iss}</strong> {ACTIONS[entry.action] ?? entry.action}
      {about && (
        <>
          {': '}
          <Link href={`/admin?tab=users&user=${entry.for}`}>{entry.for_name}</Link>
        </>
      )}
    </li>
  );
}

export function DashboardSection() {
  const [figures, setFigures] = useState<Dashboard | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    api.get<Dashboard>('/api/admin/dashboard').then(
      (reply) => setFigures(reply.data),
      (failure) => setError(messageOf(failure)),
    );
  }, []);
  if (error) return <Notice kind="error">{error}</Notice>;
  if (!figures) return <p>Loading…</p>;
  const { accounts, skins, capes, mail, broadcast } = figures;
  return (
    <section aria-label="Dashboard">
      <div class="figures">
        <section class="card" aria-labelledby="dash-accounts">
          <h2 id="dash-accounts">Accounts</h2>
          <p class="figure">{accounts.total.toLocaleString('en')}</p>
          <dl>
            <dt>New this week</dt>
            <dd>{accounts.new_this_week.toLocaleString('en')}</dd>
            <dt>Mail not confirmed</dt>
            <dd>{accounts.unverified.toLocaleString('en')}</dd>
            <dt>Banned</dt>
            <dd>{accounts.banned.toLocaleString('en')}</dd>
          </dl>
        </section>
        <section class="card" aria-labelledby="dash-skins">
          <h2 id="dash-skins">Skins</h2>
          <p class="figure">{skins.count.toLocaleString('en')}</p>
          <p class="muted">{readableSize(skins.bytes)} of pictures stored</p>
        </section>
        <section class="card" aria-labelledby="dash-capes">
          <h2 id="dash-capes">Capes</h2>
          <p class="figure">{capes.count.toLocaleString('en')}</p>
          <p class="muted">{readableSize(capes.bytes)} of pictures stored</p>
        </section>
        <section class="card" aria-labelledby="dash-mail">
          <h2 id="dash-mail">Mail</h2>
          <p class="figure">{mail.queued.toLocaleString('en')}</p>
          <p class="muted">{mail.queued === 1 ? 'mail waiting to be sent' : 'mails waiting to be sent'}</p>
          <dl>
            <dt>Given up on</dt>
            <dd class={mail.failed > 0 ? 'danger' : undefined}>{mail.failed.toLocaleString('en')}</dd>
          </dl>
          {broadcast && (
            <p>
              Mail to everyone in progress: “{broadcast.subject}”, {plural(broadcast.queued, 'player')} so far.
            </p>
          )}
        </section>
        <section class="card" aria-labelledby="dash-registration">
          <h2 id="dash-registration">Registration</h2>
          <p class="figure">{MODE_WORDS[figures.registration].short}</p>
          <p class="muted">{MODE_WORDS[figures.registration].long}</p>
          <Link href="/admin?tab=registration">Registration and invitations</Link>
        </section>
      </div>
      <section class="card" aria-labelledby="dash-activity">
        <h2 id="dash-activity">Latest activity</h2>
        {figures.audit.length === 0 ? (
          <p class="muted">Nothing recorded yet.</p>
        ) : (
          <ol class="activity">
            {figures.audit.map((entry) => (
              <Entry key={entry.id} entry={entry} />
            ))}
          </ol>
        )}
        <p>
          <Link href="/admin?tab=audit">The whole audit log</Link>
        </p>
      </section>
    </section>
  );
}
