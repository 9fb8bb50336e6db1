// Publishing from the wardrobe (contract section 19): each skin, and each cape of the player's own, says whether it
// is in the library (with a link to its entry) and offers to publish it (a name, a description, where it comes from)
// or to withdraw it. A picture someone published already is refused with a link to that entry.
import { useEffect, useState } from 'preact/hooks';
import { api, ApiError } from '../api.ts';
import { messageOf, Notice } from '../components.tsx';
import { Rich, t } from '../i18n.ts';
import { Link } from '../router.tsx';
import type { LibraryEntry } from '../../../src/http/shapes/library-entry.ts';
import './library-publish.css';

/** The player's public entries by texture digest, loaded with the wardrobe; `reload` after a change. */
export function usePublished(uploader: string): { byDigest: Map<string, LibraryEntry>; reload: () => void } {
  const [byDigest, setByDigest] = useState(new Map<string, LibraryEntry>());
  const [version, setVersion] = useState(0);
  useEffect(() => {
    let current = true;
    if (!uploader) return;
    api.get<LibraryEntry[]>('/api/library', { uploader, limit: 100 }).then(
      (reply) => current && setByDigest(new Map(reply.data.map((entry) => [entry.digest, entry]))),
      // The library cannot be read now: the wardrobe still works, it just offers to publish everything.
      () => undefined,
    );
    return () => void (current = false);
  }, [uploader, version]);
  return { byDigest, reload: () => setVersion((count) => count + 1) };
}

const entryLink = (id: number) => (text: string) => <Link href={`/library?entry=${id}`}>{text}</Link>;

const SOURCES = ['original', 'derivative', 'repost'] as const;

/** One wardrobe record's place in the library: its entry and Withdraw, or Publish and its form. */
export function PublishControls(props: {
  kind: 'skin' | 'cape';
  record: { uuid: string; name: string; digest: string };
  entry: LibraryEntry | undefined;
  onChange: () => void;
}) {
  const { kind, record, entry } = props;
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ kind: 'ok' | 'error'; text: preact.ComponentChildren } | null>(null);
  const base = `/api/home/${kind}s/${record.uuid}/publish`;
  const formId = `publish-${record.uuid}`;

  const publish = async (form: HTMLFormElement) => {
    const fields = new FormData(form);
    const text = (name: string) => String(fields.get(name) ?? '').trim();
    setBusy(true);
    setOutcome(null);
    try {
      const reply = await api.post<LibraryEntry>(base, {
        name: text('name') || record.name,
        ...(text('description') ? { description: text('description') } : {}),
        source: text('source') || 'original',
        ...(text('source_url') ? { source_url: text('source_url') } : {}),
      });
      setOpen(false);
      setOutcome({
        kind: 'ok',
        text: <Rich text={t('publish.published', { name: reply.data.name })} parts={{ entry: entryLink(reply.data.id) }} />,
      });
      props.onChange();
    } catch (error) {
      const existing = error instanceof ApiError && error.status === 409 ? Number(error.data.id) : NaN;
      setOutcome({
        kind: 'error',
        text: Number.isInteger(existing) ? <Rich text={t('publish.already')} parts={{ entry: entryLink(existing) }} /> : messageOf(error),
      });
    } finally {
      setBusy(false);
    }
  };
  const withdraw = async () => {
    setBusy(true);
    setOutcome(null);
    try {
      await api.delete(base);
      setOutcome({ kind: 'ok', text: t('publish.withdrawn', { name: entry?.name ?? record.name }) });
      props.onChange();
    } catch (error) {
      setOutcome({ kind: 'error', text: messageOf(error) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <div class="publish">
      {entry ? (
        <div class="actions publish-line">
          <small>
            <Rich text={t('publish.inLibrary', { id: entry.id })} parts={{ entry: entryLink(entry.id) }} />
          </small>
          <button
            type="button"
            class="secondary small"
            aria-label={t('publish.withdrawLabel', { name: record.name })}
            disabled={busy}
            onClick={() => void withdraw()}
          >
            {t('publish.withdraw')}
          </button>
        </div>
      ) : (
        !open && (
          <button
            type="button"
            class="secondary small"
            aria-label={t('publish.publishLabel', { name: record.name })}
            aria-expanded="false"
            onClick={() => {
              setOpen(true);
              setOutcome(null);
              setTimeout(() => document.getElementById(`${formId}-name`)?.focus());
            }}
          >
            {t('publish.publish')}
          </button>
        )
      )}
      {open && !entry && (
        <form
          class="form card publish-form"
          aria-label={t('publish.title', { name: record.name })}
          onSubmit={(event) => {
            event.preventDefault();
            void publish(event.currentTarget as HTMLFormElement);
          }}
          onKeyDown={(event) => event.key === 'Escape' && setOpen(false)}
        >
          <div class="field">
            <label for={`${formId}-name`}>{t('publish.name')}</label>
            <input id={`${formId}-name`} name="name" maxLength={64} required defaultValue={record.name} />
          </div>
          <div class="field">
            <label for={`${formId}-description`}>{t('publish.description')}</label>
            <textarea id={`${formId}-description`} name="description" maxLength={500} rows={2} />
          </div>
          <div class="field">
            <label for={`${formId}-source`}>{t('publish.source')}</label>
            <select id={`${formId}-source`} name="source">
              {SOURCES.map((source) => (
                <option key={source} value={source}>
                  {t(`publish.sources.${source}`)}
                </option>
              ))}
            </select>
          </div>
          <div class="field">
            <label for={`${formId}-url`}>{t('publish.sourceUrl')}</label>
            <input id={`${formId}-url`} name="source_url" type="url" maxLength={500} />
          </div>
          <div class="actions">
            <button type="submit" disabled={busy}>
              {t('publish.submit')}
            </button>
            <button type="button" class="secondary" onClick={() => setOpen(false)}>
              {t('publish.cancel')}
            </button>
          </div>
        </form>
      )}
      <div aria-live="polite">{outcome && <Notice kind={outcome.kind}>{outcome.text}</Notice>}</div>
    </div>
  );
}
