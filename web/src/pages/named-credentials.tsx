// An account's named credentials on the profile: app passwords (contract section 18) and passkeys (section 21), one
// component over one record shape (src/http/shapes/named-credential.ts). Each is listed with its name, when it was made
// and last used, and removed after a confirmation in the page; the sections differ in their words, in whether the name
// is renamed in place (passkeys), in whether removing asks for the password (passkeys), and in what they show above
// the list (a new app password, once) and below it (the form that makes one).
import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { NamedCredential } from '../../../src/http/shapes/named-credential.ts';
import { api } from '../api.ts';
import { Field, Notice, messageOf, uniqueId, useAction } from '../components.tsx';
import { Confirmation, InlineRename } from '../editing.tsx';
import { dateTime, t } from '../i18n.ts';

/** What tells the two kinds apart. */
export interface NamedCredentialKind<Record extends NamedCredential> {
  /** The list's address under /api/home/ and the section's id: `app-passwords` or `passkeys`. */
  path: 'app-passwords' | 'passkeys';
  /** The item's data attribute (`data-app-password`, `data-passkey`): what the browser tests find an item by. */
  dataAttribute: 'data-app-password' | 'data-passkey';
  /** The words' namespace in web.json, the words for "made" and for removing one (`revoke` / `revoked`, `remove` / `removed`). */
  words: 'appPasswords' | 'passkeys';
  made: 'made' | 'added';
  remove: { verb: 'revoke' | 'remove'; done: 'revoked' | 'removed' };
  /** Renamed in place with this word for InlineRename; else the name is shown as it is. */
  renameAs?: 'passkey';
  /** Removing asks for the account's password, sent with the DELETE. */
  askPassword: boolean;
  /** More after "last used" (a passkey's "synced"). */
  details?: (record: Record) => ComponentChildren;
}

export function NamedCredentialsSection<Record extends NamedCredential>(props: {
  kind: NamedCredentialKind<Record>;
  /** Shown between the section's failure notice and the list (a new app password, once). */
  beforeList?: ComponentChildren;
  /** After the list and its outcome: the form that makes one, which calls `reload` once it has. */
  form: (reload: () => Promise<void>) => ComponentChildren;
}) {
  const { kind } = props;
  const words = (key: string, values?: { name?: string; when?: string }) => t(`${kind.words}.${key}`, values);
  const [listed, setListed] = useState<Record[] | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const removing = useAction();
  const heading = useRef<HTMLHeadingElement>(null);
  const url = `/api/home/${kind.path}`;
  const load = () =>
    api.get<Record[]>(url).then(
      (reply) => setListed(reply.data),
      (error) => setFailure(messageOf(error)),
    );
  useEffect(() => void load(), []);
  const remove = (record: Record, password: string) =>
    removing.run(async () => {
      if (kind.askPassword) await api.delete(`${url}/${record.id}`, { password });
      else await api.delete(`${url}/${record.id}`);
      await load();
      // Its button is gone with it: the focus goes to the section.
      heading.current?.focus();
      return words(kind.remove.done, { name: record.name });
    });
  const rename = kind.renameAs
    ? async (record: Record, name: string) => {
        await api.patch(`${url}/${record.id}`, { name });
        await load();
      }
    : undefined;
  return (
    <section class="card" aria-labelledby={`${kind.path}-title`}>
      <h3 id={`${kind.path}-title`} ref={heading} tabIndex={-1}>
        {words('title')}
      </h3>
      <p class="muted">{words('text')}</p>
      {failure && <Notice kind="error">{failure}</Notice>}
      {props.beforeList}
      {listed && listed.length === 0 && <p>{words('none')}</p>}
      {listed && listed.length > 0 && (
        <ul class={`items ${kind.path}`}>
          {listed.map((record) => (
            <NamedCredentialItem
              key={record.id}
              kind={kind}
              record={record}
              busy={removing.busy}
              onRename={rename && ((name) => rename(record, name))}
              onRemove={(password) => void remove(record, password)}
            />
          ))}
        </ul>
      )}
      <div aria-live="polite">{removing.outcome}</div>
      {props.form(load)}
    </section>
  );
}

function NamedCredentialItem<Record extends NamedCredential>(props: {
  kind: NamedCredentialKind<Record>;
  record: Record;
  busy: boolean;
  onRename?: (name: string) => Promise<void>;
  onRemove: (password: string) => void;
}) {
  const { kind, record } = props;
  const words = (key: string, values?: { name?: string; when?: string }) => t(`${kind.words}.${key}`, values);
  const [asking, setAsking] = useState(false);
  const [password, setPassword] = useState('');
  const [passwordId] = useState(() => (kind.askPassword ? uniqueId('passkey-password') : ''));
  const button = useRef<HTMLButtonElement>(null);
  const confirm = () => {
    setAsking(false);
    props.onRemove(password);
    setPassword('');
  };
  const cancel = () => {
    setAsking(false);
    setTimeout(() => button.current?.focus());
  };
  return (
    <li {...{ [kind.dataAttribute]: record.id }} aria-label={record.name}>
      <div class="grow">
        {props.onRename && kind.renameAs ? (
          <InlineRename name={record.name} what={kind.renameAs} rename={props.onRename} />
        ) : (
          <strong>{record.name}</strong>
        )}
        <small>
          {words(kind.made, { when: dateTime(record.created) })} ·{' '}
          {record.last_used === null ? words('neverUsed') : words('lastUsed', { when: dateTime(record.last_used) })}
          {kind.details?.(record)}
        </small>
      </div>
      <div class="actions">
        <button
          ref={button}
          type="button"
          class="danger"
          aria-label={words(`${kind.remove.verb}Label`, { name: record.name })}
          disabled={asking || props.busy}
          onClick={() => setAsking(true)}
        >
          {words(kind.remove.verb)}
        </button>
      </div>
      {asking && (
        <Confirmation
          confirmLabel={words(`${kind.remove.verb}Confirm`, { name: record.name })}
          danger
          fields={
            kind.askPassword ? (
              <div class="field">
                <label for={passwordId}>{t('field.password')}</label>
                <input
                  id={passwordId}
                  type="password"
                  autocomplete="current-password"
                  value={password}
                  onInput={(event) => setPassword(event.currentTarget.value)}
                  onKeyDown={(event) => {
                    if (event.key === 'Enter') confirm();
                  }}
                />
              </div>
            ) : undefined
          }
          onConfirm={confirm}
          onCancel={cancel}
        >
          {words(`${kind.remove.verb}Question`, { name: record.name })}
        </Confirmation>
      )}
    </li>
  );
}

/**
 * The fields of the form that adds a named credential: its name, the account's password, and the two-factor code when
 * `twoFactor` (the account has it on): a new way in is proven as a login is.
 */
export function NewCredentialFields(props: { nameLabel: string; nameHint: string; twoFactor: boolean }) {
  return (
    <>
      <Field label={props.nameLabel} name="name" required hint={props.nameHint} />
      <Field label={t('twoFactor.yourPassword')} name="password" type="password" required autocomplete="current-password" />
      {props.twoFactor && <Field label={t('twoFactor.eitherCode')} name="totp" required autocomplete="one-time-code" />}
    </>
  );
}

/** The proof NewCredentialFields asked for, as the API takes it: the password, and the code when there was one. */
export const proofOf = ({ password, totp }: Record<string, string>) =>
  totp === undefined ? { password } : { password, totp: totp.trim() };
