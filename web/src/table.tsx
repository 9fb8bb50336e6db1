// Lists of records for the admin console: a scrollable table, and a paginated list loaded from the API (its words
// in the console's catalogue, admin.json).
import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { api } from './api.ts';
import { messageOf } from './components.tsx';
import { formatNumber, t } from './i18n.ts';

const PAGE_SIZE = 20;

/** A scrollable table of records, one row per record. */
export function Table<T extends { id: number | string }>(props: {
  headers: string[];
  rows: T[] | null;
  cells: (row: T) => ComponentChildren[];
}) {
  return (
    <div class="table">
      <table>
        <thead>
          <tr>
            {props.headers.map((header) => (
              <th key={header}>{header}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {props.rows?.map((row) => (
            <tr key={row.id}>
              {props.cells(row).map((cell, index) => (
                <td key={index}>{cell}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Loads a paginated list (limit/offset, total from X-Total-Count) and reloads when its inputs change. */
export function usePagedList<T>(path: string, filters: Record<string, string | number | undefined>) {
  const [offset, setOffset] = useState(0);
  const [rows, setRows] = useState<T[] | null>(null);
  const [total, setTotal] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const [version, setVersion] = useState(0);
  const key = JSON.stringify(filters);
  useEffect(() => setOffset(0), [key]);
  useEffect(() => {
    api.get<T[]>(path, { ...filters, limit: PAGE_SIZE, offset }).then(
      (reply) => {
        setRows(reply.data);
        setTotal(reply.total ?? reply.data.length);
        setError(null);
      },
      (failure) => setError(messageOf(failure)),
    );
  }, [path, key, offset, version]);
  const pager = (
    <div class="pager">
      <button type="button" class="secondary" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE_SIZE))}>
        {t('admin:pager.previous')}
      </button>
      <span>
        {total === 0
          ? t('admin:pager.none')
          : t('admin:pager.range', {
              first: formatNumber(offset + 1),
              last: formatNumber(Math.min(offset + PAGE_SIZE, total)),
              total: formatNumber(total),
            })}
      </span>
      <button type="button" class="secondary" disabled={offset + PAGE_SIZE >= total} onClick={() => setOffset(offset + PAGE_SIZE)}>
        {t('admin:pager.next')}
      </button>
    </div>
  );
  return {
    rows,
    error,
    pager,
    reload: () => setVersion(version + 1),
    /** Loads the list again from its first page (where a record just made shows). */
    reloadFromStart: () => {
      setOffset(0);
      setVersion(version + 1);
    },
  };
}
