// The audit log, newest first, filtered by user, issuer, action and time.
import { useState } from 'preact/hooks';
import type { AuditEntry } from '../../api.ts';
import { Field, Form, Notice } from '../../components.tsx';
import { Table, usePagedList } from '../../table.tsx';

export function AuditSection() {
  const [filters, setFilters] = useState<Record<string, string>>({});
  const list = usePagedList<AuditEntry>('/api/admin/audit', {
    for: filters.for,
    iss: filters.iss,
    action: filters.action,
    since: filters.since ? Math.floor(new Date(filters.since).getTime() / 1000) : undefined,
    until: filters.until ? Math.floor(new Date(filters.until).getTime() / 1000) : undefined,
  });
  return (
    <section>
      <Form submitLabel="Filter" submit={async (fields) => setFilters(fields)}>
        <div class="fields">
          <Field label="About user id" name="for" />
          <Field label="By (issuer)" name="iss" />
          <Field label="Action" name="action" />
          <Field label="Since" name="since" type="datetime-local" />
          <Field label="Until" name="until" type="datetime-local" />
        </div>
      </Form>
      {list.error && <Notice kind="error">{list.error}</Notice>}
      <Table
        headers={['Time', 'Action', 'By', 'About', 'Details']}
        rows={list.rows}
        cells={(entry) => [
          new Date(entry.time * 1000).toLocaleString(),
          entry.action,
          entry.iss,
          entry.for || '',
          <code>{entry.details ? JSON.stringify(entry.details) : ''}</code>,
        ]}
      />
      {list.pager}
    </section>
  );
}
