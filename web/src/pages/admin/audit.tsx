// The audit log, newest first, filtered by player, actor, action and time; each entry as a sentence with the players
// as links to their editor.
import { useState } from 'preact/hooks';
import type { AuditEntry } from '../../api.ts';
import { Notice } from '../../components.tsx';
import { Table, usePagedList } from '../../table.tsx';
import { AUDIT_ACTIONS, actionLabel, describe } from './audit-sentences.ts';
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
      <h2 id="audit-heading">Audit log</h2>
      <form class="form" onSubmit={(event) => void apply(event)}>
        <div class="fields">
          <UsernameField label="About player" value={about} onInput={setAbout} error={aboutError} />
          <UsernameField label="Done by" value={by} onInput={setBy} hint="A player's name, or system" />
          <div class="field">
            <label for="audit-action">What happened</label>
            <select id="audit-action" value={action} onChange={(event) => setAction(event.currentTarget.value)}>
              <option value="">Anything</option>
              {AUDIT_ACTIONS.map((group) => (
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
            <label for="audit-since">Since</label>
            <input id="audit-since" type="datetime-local" value={since} onInput={(event) => setSince(event.currentTarget.value)} />
          </div>
          <div class="field">
            <label for="audit-until">Until</label>
            <input id="audit-until" type="datetime-local" value={until} onInput={(event) => setUntil(event.currentTarget.value)} />
          </div>
        </div>
        <button type="submit">Filter</button>
      </form>
      {list.error && <Notice kind="error">{plainMessage(list.error)}</Notice>}
      {list.rows?.length === 0 ? (
        <p class="muted">Nothing was recorded that matches.</p>
      ) : (
        <Table
          headers={['When', 'What', 'By', 'About', 'Details']}
          rows={list.rows}
          cells={(entry) => [
            new Date(entry.time * 1000).toLocaleString(),
            actionLabel(entry.action),
            entry.iss_id ? <UserLink id={entry.iss_id} name={entry.iss} /> : entry.iss,
            entry.for ? <UserLink id={entry.for} name={entry.for_name ?? ''} /> : <span class="muted">nobody in particular</span>,
            describe(entry),
          ]}
        />
      )}
      {list.pager}
    </section>
  );
}
