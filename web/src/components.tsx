// Shared building blocks: the page frame, labelled fields, and forms that show the API's own messages.
import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from './api.ts';
import { Link } from './router.tsx';

/** Until the service has answered, and if it cannot: SERVER_NAME's own default. */
const FALLBACK_SITE_NAME = 'Skin service';
let siteNameRequest: Promise<string> | null = null;
let knownSiteName: string | null = null;

/**
 * The site's name (SERVER_NAME), as the public game login root announces it (`meta.serverName`); asked for once per
 * page load and shared by every page.
 */
export function useSiteName(): string {
  const [name, setName] = useState(knownSiteName ?? FALLBACK_SITE_NAME);
  useEffect(() => {
    siteNameRequest ??= fetch('/api/yggdrasil/')
      .then((response) => (response.ok ? response.json() : null))
      .then((root: { meta?: { serverName?: string } } | null) => root?.meta?.serverName || FALLBACK_SITE_NAME)
      .catch(() => FALLBACK_SITE_NAME)
      .then((found) => (knownSiteName = found));
    let current = true;
    void siteNameRequest.then((found) => current && setName(found));
    return () => void (current = false);
  }, []);
  return name;
}

/** Every page: the header with the site's name (and `nav`, the logged-in links), then the page's title and body. */
export function Page(props: { title: string; children: ComponentChildren; wide?: boolean; nav?: ComponentChildren }) {
  const siteName = useSiteName();
  document.title = props.title === siteName ? siteName : `${props.title} · ${siteName}`;
  return (
    <>
      <header class="top">
        <Link href="/" class="brand">
          {siteName}
        </Link>
        {props.nav && <nav>{props.nav}</nav>}
      </header>
      <main class={props.wide ? 'page wide' : 'page'}>
        <h1>{props.title}</h1>
        {props.children}
      </main>
    </>
  );
}

let nextFieldId = 0;

/** A labelled input; the label is tied to the input so screen readers and tests find it by its text. */
export function Field(props: {
  label: string;
  name: string;
  type?: string;
  value?: string;
  onInput?: (value: string) => void;
  required?: boolean;
  autocomplete?: string;
  minLength?: number;
  hint?: string;
  /** What is wrong with the value, shown under the input and read out with it. */
  error?: string | null;
}) {
  const [id] = useState(() => `field-${(nextFieldId += 1)}`);
  const errorId = `${id}-error`;
  return (
    <div class="field">
      <label for={id}>{props.label}</label>
      <input
        id={id}
        name={props.name}
        type={props.type ?? 'text'}
        // Controlled when the caller follows the input, otherwise only a starting value the user may change.
        {...(props.onInput ? { value: props.value } : { defaultValue: props.value })}
        required={props.required}
        autocomplete={props.autocomplete}
        minLength={props.minLength}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={props.error ? errorId : undefined}
        onInput={props.onInput ? (event) => props.onInput!((event.target as HTMLInputElement).value) : undefined}
      />
      {props.hint && <small>{props.hint}</small>}
      {props.error && (
        <small id={errorId} class="field-error">
          {props.error}
        </small>
      )}
    </div>
  );
}

/**
 * Writes `text` to the clipboard. navigator.clipboard exists only in secure contexts (HTTPS, localhost): a site
 * opened by a LAN address over HTTP copies the selected input instead.
 */
async function copyToClipboard(text: string, input: HTMLInputElement): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    input.select();
    return document.execCommand('copy');
  }
}

/** A labelled read-only value with a copy button; the outcome is announced to screen readers. */
export function CopyField(props: { label: string; value: string }) {
  const [id] = useState(() => `field-${(nextFieldId += 1)}`);
  const input = useRef<HTMLInputElement>(null);
  const [outcome, setOutcome] = useState('');
  const copy = async () => {
    // Emptied first, so that copying again announces again.
    setOutcome('');
    const copied = await copyToClipboard(props.value, input.current!);
    setOutcome(copied ? 'Copied' : 'This browser refused to copy: the text is selected, press Ctrl+C');
  };
  return (
    <div class="field">
      <label for={id}>{props.label}</label>
      <div class="copy">
        <input id={id} ref={input} readOnly value={props.value} onFocus={(event) => event.currentTarget.select()} />
        <button type="button" class="secondary" aria-label={`Copy ${props.label}`} onClick={() => void copy()}>
          Copy
        </button>
      </div>
      <small role="status" aria-live="polite">
        {outcome}
      </small>
    </div>
  );
}

export function Notice(props: { kind: 'error' | 'ok'; children: ComponentChildren }) {
  return (
    <p class={`notice ${props.kind}`} role={props.kind === 'error' ? 'alert' : 'status'}>
      {props.children}
    </p>
  );
}

/** Asks for a skin's new name; calls `rename` with it unless the user cancels or leaves it empty. */
export function askNewName(current: string, rename: (name: string) => void) {
  const name = prompt('New name for this skin', current)?.trim();
  if (name) rename(name);
}

/**
 * Asks in the page before an action that is hard to undo, unlike window.confirm: the question stays readable beside
 * what it is about, and it looks the same in every browser. The confirm button takes the focus; Escape cancels.
 */
export function Confirmation(props: {
  children: ComponentChildren;
  confirmLabel: string;
  danger?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const [id] = useState(() => `confirmation-${(nextFieldId += 1)}`);
  const confirm = useRef<HTMLButtonElement>(null);
  useEffect(() => confirm.current?.focus(), []);
  return (
    <div
      class={props.danger ? 'card confirmation danger' : 'card confirmation'}
      role="alertdialog"
      aria-label={props.confirmLabel}
      aria-describedby={id}
      onKeyDown={(event) => event.key === 'Escape' && props.onCancel()}
    >
      <p id={id}>{props.children}</p>
      <div class="actions">
        <button ref={confirm} type="button" class={props.danger ? 'danger' : undefined} onClick={props.onConfirm}>
          {props.confirmLabel}
        </button>
        <button type="button" class="secondary" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </div>
  );
}

export function messageOf(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  return error instanceof Error ? error.message : String(error);
}

/** Runs one action at a time and keeps its outcome: the API's message on failure, a note on success. */
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const run = async (action: () => Promise<string | void>) => {
    setBusy(true);
    setError(null);
    setDone(null);
    try {
      const note = await action();
      if (note) setDone(note);
    } catch (failure) {
      setError(messageOf(failure));
    } finally {
      setBusy(false);
    }
  };
  const outcome = (
    <>
      {error && <Notice kind="error">{error}</Notice>}
      {done && <Notice kind="ok">{done}</Notice>}
    </>
  );
  return { busy, run, outcome, error };
}

/** A form that reads its named fields and hands them to `submit`; shows the outcome under the button. */
export function Form(props: {
  submitLabel: string;
  submit: (fields: Record<string, string>, form: FormData) => Promise<string | void>;
  children: ComponentChildren;
  resetOnSuccess?: boolean;
}) {
  const action = useAction();
  return (
    <form
      class="form"
      onSubmit={(event) => {
        event.preventDefault();
        const form = event.currentTarget as HTMLFormElement;
        const data = new FormData(form);
        const fields: Record<string, string> = {};
        data.forEach((value, key) => {
          if (typeof value === 'string') fields[key] = value;
        });
        void action.run(async () => {
          const note = await props.submit(fields, data);
          if (props.resetOnSuccess) form.reset();
          return note;
        });
      }}
    >
      {props.children}
      <button type="submit" disabled={action.busy}>
        {props.submitLabel}
      </button>
      {action.outcome}
    </form>
  );
}
