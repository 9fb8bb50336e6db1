// /library: the public skin library (contract section 19). Anyone browses it: search as you type, filters (skins or
// capes, the model), sorting (new or popular) and pages of cards drawn by the service's own renders (by texture
// digest, so the browser caches them for good). A logged-in player saves an entry into the wardrobe, removes that
// copy, and reports an entry; any card opens a 3D preview on demand. `?entry=ID` shows one entry above the list (the
// wardrobe links there after publishing, or to the entry that has the picture already).
import { useEffect, useRef, useState } from 'preact/hooks';
import type { ComponentChildren } from 'preact';
import { api, ApiError, session, textureUrls, type CapeRecord, type SkinRecord, type UserDetail } from '../api.ts';
import { messageOf, Notice, Page } from '../components.tsx';
import { Dialog } from '../dialog.tsx';
import { t } from '../i18n.ts';
import { Link, useLocation } from '../router.tsx';
import { SkinPreview } from '../viewer.tsx';
import './library.css';
import type { LibraryEntry } from '../../../src/http/shapes/library-entry.ts';

/** Cards per page. */
export const PAGE_SIZE = 24;
/** How long typing pauses before the search is sent. */
const SEARCH_DELAY_MS = 300;
/** The default skin, for a cape's preview when nobody is logged in (the drop-in skin URL draws it for an unknown id). */
const DEFAULT_SKIN = `/skins/${'0'.repeat(32)}`;

/** The texture file of an entry, same-origin (the entry's `url` follows PUBLIC_URL). */
export const entryFile = (entry: LibraryEntry) => `/textures/${entry.digest}`;

interface Filters {
  q: string;
  kind: '' | 'skin' | 'cape';
  model: '' | 'classic' | 'slim';
  sort: 'new' | 'popular';
}

/** What the logged-in player has: who they are and the digests in their wardrobe (to know what they saved). */
interface Viewer {
  profile: UserDetail;
  digests: Set<string>;
}

async function loadViewer(): Promise<Viewer | null> {
  if (!session.token()) return null;
  try {
    const [home, skins, capes] = await Promise.all([
      api.get<UserDetail>('/api/home'),
      api.get<SkinRecord[]>('/api/home/skins'),
      api.get<CapeRecord[]>('/api/home/capes'),
    ]);
    return { profile: home.data, digests: new Set([...skins.data, ...capes.data].map((record) => record.digest)) };
  } catch {
    // A token no longer valid: browse as a visitor.
    return null;
  }
}

export function LibraryPage() {
  const { query } = useLocation();
  const shownEntry = Number(query.get('entry')) || null;
  const [viewer, setViewer] = useState<Viewer | null | undefined>(undefined);
  const [filters, setFilters] = useState<Filters>({ q: '', kind: '', model: '', sort: 'new' });
  const [typed, setTyped] = useState('');
  const [page, setPage] = useState(0);
  const [result, setResult] = useState<{ entries: LibraryEntry[]; total: number } | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [previewing, setPreviewing] = useState<{ entry: LibraryEntry; opener: HTMLElement | null } | null>(null);
  const [reporting, setReporting] = useState<{ entry: LibraryEntry; opener: HTMLElement | null } | null>(null);
  const listHeading = useRef<HTMLHeadingElement>(null);

  useEffect(() => void loadViewer().then(setViewer), []);

  // Search as you type: the query is sent once typing pauses.
  useEffect(() => {
    if (typed === filters.q) return;
    const timer = setTimeout(() => {
      setFilters((current) => ({ ...current, q: typed }));
      setPage(0);
    }, SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [typed]);

  useEffect(() => {
    let current = true;
    setFailure(null);
    api
      .get<LibraryEntry[]>('/api/library', {
        q: filters.q.trim() || undefined,
        kind: filters.kind || undefined,
        model: filters.kind === 'cape' ? undefined : filters.model || undefined,
        sort: filters.sort,
        limit: PAGE_SIZE,
        offset: page * PAGE_SIZE,
      })
      .then(
        (reply) => current && setResult({ entries: reply.data, total: reply.total ?? reply.data.length }),
        (error) => current && setFailure(messageOf(error)),
      );
    return () => void (current = false);
  }, [filters, page]);

  const choose = (changes: Partial<Filters>) => {
    setFilters((current) => ({ ...current, ...changes }));
    setPage(0);
  };
  const pages = result ? Math.max(1, Math.ceil(result.total / PAGE_SIZE)) : 1;
  const turn = (to: number) => {
    setPage(to);
    listHeading.current?.focus();
  };
  const cardProps = {
    viewer: viewer ?? null,
    onViewerChange: (change: (digests: Set<string>) => void) =>
      setViewer((current) => {
        if (!current) return current;
        const digests = new Set(current.digests);
        change(digests);
        return { ...current, digests };
      }),
    onPreview: (entry: LibraryEntry, opener: HTMLElement | null) => setPreviewing({ entry, opener }),
    onReport: (entry: LibraryEntry, opener: HTMLElement | null) => setReporting({ entry, opener }),
  };

  return (
    <Page
      title={t('library.title')}
      wide
      nav={
        viewer === undefined ? null : viewer ? (
          <Link href="/home">{t('connect.profile')}</Link>
        ) : (
          <Link href="/login?next=%2Flibrary">{t('library.logIn')}</Link>
        )
      }
    >
      <p class="muted">{t('library.intro')}</p>
      {viewer === null && (
        <p>
          <Link href="/login?next=%2Flibrary">{t('library.logInToSave')}</Link>
        </p>
      )}
      {shownEntry !== null && <OneEntry id={shownEntry} {...cardProps} />}
      <section class="card library-filters" aria-labelledby="library-filters-title">
        <h2 id="library-filters-title" class="visually-hidden">
          {t('library.filters')}
        </h2>
        <div class="field library-search">
          <label for="library-search">{t('library.search')}</label>
          <input
            id="library-search"
            type="search"
            name="q"
            maxLength={64}
            value={typed}
            aria-describedby="library-search-hint"
            onInput={(event) => setTyped(event.currentTarget.value)}
          />
          <small id="library-search-hint">{t('library.searchHint')}</small>
        </div>
        <div class="field">
          <label for="library-kind">{t('library.kind')}</label>
          <select
            id="library-kind"
            value={filters.kind}
            onChange={(event) => choose({ kind: event.currentTarget.value as Filters['kind'] })}
          >
            <option value="">{t('library.kindAll')}</option>
            <option value="skin">{t('library.kindSkin')}</option>
            <option value="cape">{t('library.kindCape')}</option>
          </select>
        </div>
        <div class="field">
          <label for="library-model">{t('library.model')}</label>
          <select
            id="library-model"
            value={filters.kind === 'cape' ? '' : filters.model}
            disabled={filters.kind === 'cape'}
            onChange={(event) => choose({ model: event.currentTarget.value as Filters['model'] })}
          >
            <option value="">{t('library.modelAll')}</option>
            <option value="classic">{t('library.modelClassic')}</option>
            <option value="slim">{t('library.modelSlim')}</option>
          </select>
        </div>
        <div class="field">
          <label for="library-sort">{t('library.sort')}</label>
          <select
            id="library-sort"
            value={filters.sort}
            onChange={(event) => choose({ sort: event.currentTarget.value as Filters['sort'] })}
          >
            <option value="new">{t('library.sortNew')}</option>
            <option value="popular">{t('library.sortPopular')}</option>
          </select>
        </div>
      </section>
      <section aria-labelledby="library-results">
        <h2 id="library-results" ref={listHeading} tabIndex={-1}>
          {t('library.results')}
        </h2>
        <p class="muted" aria-live="polite" data-total={result?.total ?? ''}>
          {failure ? '' : result === null ? t('common.loading') : t('library.count', { count: result.total })}
        </p>
        {failure && <Notice kind="error">{failure}</Notice>}
        {result && result.entries.length === 0 && !failure && (
          <p>{t(filters.q || filters.kind || filters.model ? 'library.noneFound' : 'library.empty')}</p>
        )}
        {result && result.entries.length > 0 && (
          <ul class="library-grid">
            {result.entries.map((entry) => (
              <EntryCard key={entry.id} entry={entry} {...cardProps} />
            ))}
          </ul>
        )}
        {result && pages > 1 && (
          <nav class="actions library-pager" aria-label={t('library.pages')}>
            <button type="button" class="secondary" disabled={page === 0} onClick={() => turn(page - 1)}>
              {t('library.previous')}
            </button>
            <span>{t('library.pageOf', { page: page + 1, pages })}</span>
            <button type="button" class="secondary" disabled={page + 1 >= pages} onClick={() => turn(page + 1)}>
              {t('library.next')}
            </button>
          </nav>
        )}
      </section>
      {previewing && (
        <Dialog
          class="library-dialog"
          labelledBy="library-preview-title"
          closeLabel={t('library.close')}
          onClose={() => {
            previewing.opener?.focus();
            setPreviewing(null);
          }}
        >
          <h2 id="library-preview-title">{previewing.entry.name}</h2>
          <SkinPreview
            label={t('library.previewLabel', { name: previewing.entry.name })}
            skinUrl={
              previewing.entry.kind === 'skin'
                ? entryFile(previewing.entry)
                : viewer
                  ? textureUrls.skinFile(viewer.profile.Uuid)
                  : DEFAULT_SKIN
            }
            slim={previewing.entry.kind === 'skin' ? previewing.entry.model === 'slim' : null}
            capeUrl={previewing.entry.kind === 'cape' ? entryFile(previewing.entry) : null}
            elytraToggle={previewing.entry.kind === 'cape'}
          />
        </Dialog>
      )}
      {reporting && (
        <ReportDialog
          entry={reporting.entry}
          onClose={() => {
            reporting.opener?.focus();
            setReporting(null);
          }}
        />
      )}
    </Page>
  );
}

interface CardProps {
  viewer: Viewer | null;
  onViewerChange: (change: (digests: Set<string>) => void) => void;
  onPreview: (entry: LibraryEntry, opener: HTMLElement | null) => void;
  onReport: (entry: LibraryEntry, opener: HTMLElement | null) => void;
}

/** `?entry=ID`: that entry, above the list. */
function OneEntry(props: CardProps & { id: number }) {
  const [entry, setEntry] = useState<LibraryEntry | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  useEffect(() => {
    api.get<LibraryEntry>(`/api/library/${props.id}`).then(
      (reply) => setEntry(reply.data),
      (error) => setFailure(messageOf(error)),
    );
  }, [props.id]);
  return (
    <section aria-labelledby="library-entry-title">
      <h2 id="library-entry-title">{t('library.entryTitle', { id: props.id })}</h2>
      {failure && <Notice kind="error">{failure}</Notice>}
      {entry && (
        <ul class="library-grid">
          <EntryCard entry={entry} {...props} />
        </ul>
      )}
    </section>
  );
}

/** The thumbnail: the service's own render of the texture, by digest (answered immutable, so cached for good). */
const thumbnail = (entry: LibraryEntry) =>
  entry.kind === 'skin' ? textureUrls.body(entry.digest, 64) : textureUrls.capeOnPlayer(entry.digest, 64);

function EntryCard(props: CardProps & { entry: LibraryEntry }) {
  const { entry, viewer } = props;
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ kind: 'ok' | 'error'; text: string } | null>(null);
  const [saves, setSaves] = useState(entry.saves);
  const headingId = `library-entry-${entry.id}`;
  const mine = viewer !== null && viewer.profile.Uuid.replace(/-/g, '') === entry.owner.uuid.replace(/-/g, '');
  const saved = viewer !== null && !mine && viewer.digests.has(entry.digest);
  const model = entry.kind === 'cape' ? t('library.cape') : entry.model === 'slim' ? t('library.modelSlim') : t('library.modelClassic');
  const act = async (work: () => Promise<string>) => {
    setBusy(true);
    setOutcome(null);
    try {
      setOutcome({ kind: 'ok', text: await work() });
    } catch (error) {
      setOutcome({ kind: 'error', text: messageOf(error) });
    } finally {
      setBusy(false);
    }
  };
  const save = () =>
    act(async () => {
      try {
        await api.post(`/api/library/${entry.id}/save`, {});
        setSaves((count) => count + 1);
      } catch (error) {
        // Saved already (in another tab): it is in the wardrobe, so the card offers to remove it.
        if (!(error instanceof ApiError && error.key === 'library.alreadySaved')) throw error;
      }
      props.onViewerChange((digests) => digests.add(entry.digest));
      return t('library.savedNote', { name: entry.name });
    });
  const unsave = () =>
    act(async () => {
      try {
        await api.delete(`/api/library/${entry.id}/save`);
        setSaves((count) => Math.max(0, count - 1));
      } catch (error) {
        // The same picture is in the wardrobe, but uploaded, not saved from here: nothing to remove on this card.
        if (error instanceof ApiError && error.key === 'library.notSaved') {
          props.onViewerChange((digests) => digests.delete(entry.digest));
          throw new Error(t('library.notSavedHere'));
        }
        throw error;
      }
      props.onViewerChange((digests) => digests.delete(entry.digest));
      return t('library.removedNote', { name: entry.name });
    });
  return (
    <li class="card library-card" aria-labelledby={headingId} data-entry-id={entry.id}>
      <img class="library-thumb" src={thumbnail(entry)} alt="" width={64} height={142} loading="lazy" />
      <div class="library-about">
        <h3 id={headingId}>{entry.name}</h3>
        <p class="muted">
          {t('library.by', { name: entry.owner.name })}
          <br />
          {model} · {t('library.saves', { count: saves })}
        </p>
        {entry.description && <p class="library-description">{entry.description}</p>}
        {mine && <p class="muted">{t('library.yours')}</p>}
        {saved && <p class="muted">{t('library.inWardrobe')}</p>}
      </div>
      <div class="actions">
        <CardButton
          label={t('library.previewButtonLabel', { name: entry.name })}
          onClick={(event) => props.onPreview(entry, event.currentTarget as HTMLElement)}
        >
          {t('library.preview')}
        </CardButton>
        {viewer &&
          !mine &&
          (saved ? (
            <CardButton label={t('library.removeLabel', { name: entry.name })} disabled={busy} onClick={() => void unsave()}>
              {t('library.remove')}
            </CardButton>
          ) : (
            <CardButton label={t('library.saveLabel', { name: entry.name })} disabled={busy} primary onClick={() => void save()}>
              {t('library.save')}
            </CardButton>
          ))}
        {viewer && !mine && (
          <CardButton
            label={t('library.reportLabel', { name: entry.name })}
            onClick={(event) => props.onReport(entry, event.currentTarget as HTMLElement)}
          >
            {t('library.report')}
          </CardButton>
        )}
      </div>
      <div aria-live="polite">{outcome && <Notice kind={outcome.kind}>{outcome.text}</Notice>}</div>
    </li>
  );
}

function CardButton(props: {
  label: string;
  children: ComponentChildren;
  onClick: (event: MouseEvent) => void;
  disabled?: boolean;
  primary?: boolean;
}) {
  return (
    <button
      type="button"
      class={props.primary ? 'small' : 'secondary small'}
      aria-label={props.label}
      disabled={props.disabled}
      onClick={props.onClick}
    >
      {props.children}
    </button>
  );
}

const REASONS = ['inappropriate', 'copyright', 'other'] as const;

/** Reporting an entry to the moderators: a reason and, if the player wants, a few words. */
function ReportDialog(props: { entry: LibraryEntry; onClose: () => void }) {
  const [reason, setReason] = useState<(typeof REASONS)[number]>('inappropriate');
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ kind: 'ok' | 'error'; text: string } | null>(null);
  const send = async () => {
    setBusy(true);
    setOutcome(null);
    try {
      await api.post(`/api/library/${props.entry.id}/reports`, { reason, ...(text.trim() ? { message: text.trim() } : {}) });
      setOutcome({ kind: 'ok', text: t('library.reported', { name: props.entry.name }) });
    } catch (error) {
      // A service without reports yet answers the route with 404: say so rather than "not found".
      const missing = error instanceof ApiError && error.status === 404 && error.key !== 'library.noEntry';
      setOutcome({ kind: 'error', text: missing ? t('library.reportsUnavailable') : messageOf(error) });
    } finally {
      setBusy(false);
    }
  };
  const done = outcome?.kind === 'ok';
  return (
    <Dialog class="library-dialog" labelledBy="library-report-title" closeLabel={t('library.close')} onClose={props.onClose}>
      <h2 id="library-report-title">{t('library.reportTitle', { name: props.entry.name })}</h2>
      <form
        class="form"
        onSubmit={(event) => {
          event.preventDefault();
          void send();
        }}
      >
        <fieldset disabled={done}>
          <legend>{t('library.reason')}</legend>
          {REASONS.map((value) => (
            <label key={value} class="check">
              <input type="radio" name="reason" value={value} checked={reason === value} onChange={() => setReason(value)} />
              {t(`library.reasons.${value}`)}
            </label>
          ))}
        </fieldset>
        <div class="field">
          <label for="library-report-message">{t('library.reportMessage')}</label>
          <textarea
            id="library-report-message"
            name="message"
            maxLength={500}
            rows={3}
            value={text}
            disabled={done}
            onInput={(event) => setText(event.currentTarget.value)}
          />
        </div>
        {!done && (
          <button type="submit" disabled={busy}>
            {t('library.sendReport')}
          </button>
        )}
        <div aria-live="polite">{outcome && <Notice kind={outcome.kind}>{outcome.text}</Notice>}</div>
      </form>
    </Dialog>
  );
}
