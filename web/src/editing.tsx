// Building blocks of the pages behind the login: renaming in place, asking before an action that is hard to undo, and
// showing a new secret once.
// Apart from components.tsx so that the first chunk, which the login pages load, does not carry them.
import type { ComponentChildren } from 'preact';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { CopyField, messageOf, uniqueId } from './components.tsx';
import { t } from './i18n.ts';
import './behind-login.css';

const EMPTY_NAME = {
  skin: 'rename.emptySkin',
  cape: 'rename.emptyCape',
  profile: 'rename.emptyProfile',
  passkey: 'rename.emptyPasskey',
} as const;

/**
 * A name with a Rename button that turns it into a field in place (Enter or Save renames, Escape or Cancel keeps the
 * name); the focus goes to the field, and back to the button afterwards. `rename` throws the API's error, shown on
 * the field.
 */
export function InlineRename(props: { name: string; what: keyof typeof EMPTY_NAME; rename: (name: string) => Promise<void> }) {
  const [editing, setEditing] = useState(false);
  const [value, setValue] = useState(props.name);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [id] = useState(() => uniqueId('rename'));
  const input = useRef<HTMLInputElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const wasEditing = useRef(false);
  useEffect(() => {
    if (editing) input.current?.select();
    else if (wasEditing.current) button.current?.focus();
    wasEditing.current = editing;
  }, [editing]);
  const cancel = () => {
    setEditing(false);
    setError(null);
    setValue(props.name);
  };
  if (!editing)
    return (
      <span class="name-line">
        <strong>{props.name}</strong>
        <button
          ref={button}
          type="button"
          class="secondary small"
          aria-label={t('common.renameLabel', { name: props.name })}
          onClick={() => setEditing(true)}
        >
          {t('common.rename')}
        </button>
      </span>
    );
  return (
    <form
      class="rename"
      onSubmit={(event) => {
        event.preventDefault();
        const name = value.trim();
        if (!name) return setError(t(EMPTY_NAME[props.what]));
        if (name === props.name) return cancel();
        setBusy(true);
        props.rename(name).then(
          () => {
            setBusy(false);
            setError(null);
            setEditing(false);
          },
          (failure) => {
            setBusy(false);
            setError(messageOf(failure));
            input.current?.focus();
          },
        );
      }}
      onKeyDown={(event) => event.key === 'Escape' && cancel()}
    >
      <label for={id}>{t('common.newNameFor', { name: props.name })}</label>
      <input
        id={id}
        ref={input}
        value={value}
        maxLength={64}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onInput={(event) => setValue(event.currentTarget.value)}
      />
      {error && (
        <small id={`${id}-error`} class="field-error">
          {error}
        </small>
      )}
      <div class="actions">
        <button type="submit" disabled={busy}>
          {t('common.save')}
        </button>
        <button type="button" class="secondary" onClick={cancel}>
          {t('common.cancel')}
        </button>
      </div>
    </form>
  );
}

/**
 * Asks in the page before an action that is hard to undo, unlike window.confirm: the question stays readable beside
 * what it is about, and it looks the same in every browser. The confirm button takes the focus (or, with `fields`,
 * their first field); Escape cancels.
 */
export function Confirmation(props: {
  children: ComponentChildren;
  confirmLabel: string;
  /** The question's name for screen readers, when it is not the confirm button's label. */
  label?: string;
  /** Fields under the question (a reason to give, say). */
  fields?: ComponentChildren;
  danger?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const [id] = useState(() => uniqueId('confirmation'));
  const dialog = useRef<HTMLDivElement>(null);
  const confirm = useRef<HTMLButtonElement>(null);
  // Focused as soon as it is drawn (not after the next paint): an Escape pressed right after opening it must reach it.
  useLayoutEffect(() => (dialog.current?.querySelector<HTMLElement>('input, textarea, select') ?? confirm.current)?.focus(), []);
  return (
    <div
      ref={dialog}
      class={props.danger ? 'card confirmation danger' : 'card confirmation'}
      role="alertdialog"
      aria-label={props.label ?? props.confirmLabel}
      aria-describedby={id}
      onKeyDown={(event) => event.key === 'Escape' && props.onCancel()}
    >
      <p id={id}>{props.children}</p>
      {props.fields}
      <div class="actions">
        <button ref={confirm} type="button" class={props.danger ? 'danger' : undefined} onClick={props.onConfirm}>
          {props.confirmLabel}
        </button>
        <button type="button" class="secondary" onClick={props.onCancel}>
          {t('common.cancel')}
        </button>
      </div>
    </div>
  );
}

/** How a question with a reason is answered: confirmed with the reason (trimmed, '' when none), or cancelled. */
export interface ReasonAnswer {
  onConfirm: (reason: string) => void;
  onCancel: () => void;
}

/**
 * A dangerous Confirmation that also asks an optional reason (kept or mailed to the one it is about), at most 500
 * characters: a longer one is said on its field and the confirm button does nothing. `onConfirm` gets the reason
 * trimmed, '' when none was given.
 */
export function ReasonConfirmation(
  props: ReasonAnswer & {
    children: ComponentChildren;
    /** The reason field's id (its error's is this with `-error`). */
    fieldId: string;
    label: string;
    confirmLabel: string;
    reasonLabel: string;
    tooLongMessage: string;
  },
) {
  const [reason, setReason] = useState('');
  const id = props.fieldId;
  const tooLong = reason.trim().length > 500;
  return (
    <Confirmation
      danger
      label={props.label}
      confirmLabel={props.confirmLabel}
      // Refused while the reason is too long, as its field says.
      onConfirm={() => !tooLong && props.onConfirm(reason.trim())}
      onCancel={props.onCancel}
      fields={
        <div class="field">
          <label for={id}>{props.reasonLabel}</label>
          <textarea
            id={id}
            rows={2}
            value={reason}
            aria-invalid={tooLong ? true : undefined}
            aria-describedby={tooLong ? `${id}-error` : undefined}
            onInput={(event) => setReason(event.currentTarget.value)}
          />
          {tooLong && (
            <small id={`${id}-error`} class="field-error">
              {props.tooLongMessage}
            </small>
          )}
        </div>
      }
    >
      {props.children}
    </Confirmation>
  );
}

/**
 * A secret shown this once (an app password, an app's client secret): a heading that takes the focus (again for each
 * new `id`), what to do with it, its values with copy buttons, and a button that hides it.
 */
export function ShownOnce(props: {
  id: string | number;
  title: string;
  text: string;
  values: { label: string; value: string }[];
  doneLabel: string;
  onDone: () => void;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), [props.id]);
  return (
    <div class="shown-once">
      <h3 ref={heading} tabIndex={-1}>
        {props.title}
      </h3>
      <p>{props.text}</p>
      {props.values.map(({ label, value }) => (
        <CopyField key={label} label={label} value={value} />
      ))}
      <button type="button" class="secondary" onClick={props.onDone}>
        {props.doneLabel}
      </button>
    </div>
  );
}
