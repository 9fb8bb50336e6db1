// Lists of records for the admin console: a scrollable table, and a paginated list loaded from the API (its words
// in the console's catalogue, admin.json).
import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { api } from './api.ts';
import { messageOf } from './components.tsx';
import { formatNumber, t } from './i18n.ts';

const PAGE_SIZE = 20;

/** Which sides of a scrolling box have more to see: its content's overflow, followed as it scrolls and resizes. */
function useOverflow(box: { current: HTMLElement | null }): { left: boolean; right: boolean } {
  const [sides, setSides] = useState({ left: false, right: false });
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const measure = () => {
      const left = element.scrollLeft > 1;
      const right = element.scrollLeft + element.clientWidth < element.scrollWidth - 1;
      setSides((old) => (old.left === left && old.right === right ? old : { left, right }));
    };
    measure();
    element.addEventListener('scroll', measure, { passive: true });
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    if (element.firstElementChild) observer.observe(element.firstElementChild);
    return () => {
      element.removeEventListener('scroll', measure);
      observer.disconnect();
    };
  }, []);
  return sides;
}

/**
 * A scrollable table of records, one row per record. Wider than the screen (a phone), the table scrolls inside its
 * frame, not the page, and says so: a line above it and a shade on each edge that has more to see.
 */
export function Table<T extends { id: number | string }>(props: {
  headers: string[];
  rows: T[] | null;
  cells: (row: T) => ComponentChildren[];
}) {
  const box = useRef<HTMLDivElement>(null);
  const more = useOverflow(box);
  const frame = ['table-frame', more.left && 'more-left', more.right && 'more-right'].filter(Boolean).join(' ');
  return (
    <>
      {(more.left || more.right) && (
        <p class="scroll-cue muted" aria-hidden="true">
          {t('common.scrollSideways')}
        </p>
      )}
      <div class={frame}>
        <div class="table" ref={box}>
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
      </div>
    </>
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
  // Nothing to page through: an empty list says so itself, and one page needs no buttons.
  const pager =
    total === 0 ? null : (
      <div class="pager">
        {total > PAGE_SIZE && (
          <button type="button" class="secondary" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE_SIZE))}>
            {t('admin:pager.previous')}
          </button>
        )}
        <span>
          {t('admin:pager.range', {
            first: formatNumber(offset + 1),
            last: formatNumber(Math.min(offset + PAGE_SIZE, total)),
            total: formatNumber(total),
          })}
        </span>
        {total > PAGE_SIZE && (
          <button type="button" class="secondary" disabled={offset + PAGE_SIZE >= total} onClick={() => setOffset(offset + PAGE_SIZE)}>
            {t('admin:pager.next')}
          </button>
        )}
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
