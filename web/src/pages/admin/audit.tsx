// The audit log, newest first, filtered by player, actor, action and time; each entry as a sentence with the players
// as links to their editor.
import { useState } from 'preact/hooks';
import type { AuditEntry } from '../../api.ts';
import { Notice } from '../../components.tsx';
import { Table, usePagedList } from '../../table.tsx';
import { dateTime, useT } from '../../i18n.ts';
import { auditActions, actionLabel, actorName, describe } from './audit-sentences.ts';
import { playerNamed, plainMessage, UserLink, UsernameField } from './names.tsx';

interface Filters {
  for?: number;
  iss?: string;
  action?: string;
  since?: number;
  until?: number;
}

const seconds = (local: string) => (local ? Math.floor(new Date(local).getTime() / 1000) : undefined);

export function AuditSection() {
  const t = useT();
  const [filters, setFilters] = useState<Filters>({});
  const [about, setAbout] = useState('');
  const [by, setBy] = useState('');
  const [action, setAction] = useState('');
  const [since, setSince] = useState('');
  const [until, setUntil] = useState('');
  const [aboutError, setAboutError] = useState<string | null>(null);
  const list = usePagedList<AuditEntry>('/api/admin/audit', { ...filters });
  const apply = async (event: Event) => {
    event.preventDefault();
    setAboutError(null);
    let subject: number | undefined;
    if (about.trim()) {
      try {
        subject = (await playerNamed(about)).Id;
      } catch (error) {
        return setAboutError(plainMessage(error));
      }
    }
    setFilters({ for: subject, iss: by.trim() || undefined, action: action || undefined, since: seconds(since), until: seconds(until) });
  };
  return (
    <section aria-labelledby="audit-heading">
      <h2 id="audit-heading">{t('admin:audit.heading')}</h2>
      <form class="form" onSubmit={(event) => void apply(event)}>
        <div class="fields">
          <UsernameField label={t('admin:audit.about')} value={about} onInput={setAbout} error={aboutError} />
          <UsernameField label={t('admin:audit.by')} value={by} onInput={setBy} hint={t('admin:audit.byHint')} />
          <div class="field">
            <label for="audit-action">{t('admin:audit.what')}</label>
            <select id="audit-action" value={action} onChange={(event) => setAction(event.currentTarget.value)}>
              <option value="">{t('admin:audit.anything')}</option>
              {auditActions().map((group) => (
                <optgroup key={group.group} label={group.group}>
                  {Object.entries(group.actions).map(([name, label]) => (
                    <option key={name} value={name}>
                      {label}
                    </option>
                  ))}
                </optgroup>
              ))}
            </select>
          </div>
          <div class="field">
            <label for="audit-since">{t('admin:audit.since')}</label>
            <input id="audit-since" type="datetime-local" value={since} onInput={(event) => setSince(event.currentTarget.value)} />
          </div>
          <div class="field">
            <label for="audit-until">{t('admin:audit.until')}</label>
            <input id="audit-until" type="datetime-local" value={until} onInput={(event) => setUntil(event.currentTarget.value)} />
          </div>
        </div>
        <button type="submit">{t('admin:audit.filter')}</button>
      </form>
      {list.error && <Notice kind="error">{plainMessage(list.error)}</Notice>}
      {list.rows?.length === 0 ? (
        <p class="muted">{t('admin:audit.nothing')}</p>
      ) : (
        <Table
          headers={[
            t('admin:audit.when'),
            t('admin:audit.whatHeader'),
            t('admin:audit.byHeader'),
            t('admin:audit.aboutHeader'),
            t('admin:audit.details'),
          ]}
          rows={list.rows}
          cells={(entry) => [
            dateTime(entry.time),
            actionLabel(entry.action),
            entry.iss_id ? <UserLink id={entry.iss_id} name={entry.iss} /> : actorName(entry),
            entry.for ? <UserLink id={entry.for} name={entry.for_name ?? ''} /> : <span class="muted">{t('admin:audit.nobody')}</span>,
            describe(entry),
          ]}
        />
      )}
      {list.pager}
    </section>
  );
}
