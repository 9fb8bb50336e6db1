// Passkeys on the profile (contract section 21): add one with the password (and the two-factor code), the browser's
// own dialog making it on this device, a phone or a security key; list them with their last use, rename one in place, and remove one with the password. On an
// address other than PUBLIC_URL's the browser could not use them: the section says where they work instead.
import { startRegistration } from '@simplewebauthn/browser';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { PasskeyRecord } from '../../../src/http/shapes/passkey.ts';
import { api } from '../api.ts';
import { Field, Form, Notice, messageOf, uniqueId, useAction, useGameApiRoot } from '../components.tsx';
import { Confirmation, InlineRename } from '../editing.tsx';
import { dateTime, t } from '../i18n.ts';
import { PasskeysElsewhere, passkeysWorkHere } from './passkey-login.tsx';

/** `twoFactor`: the account has two-factor login on, so adding a passkey asks for the code as well as the password. */
export function PasskeysSection(props: { twoFactor: boolean }) {
  const [listed, setListed] = useState<PasskeyRecord[] | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const removing = useAction();
  const heading = useRef<HTMLHeadingElement>(null);
  const apiRoot = useGameApiRoot();
  const load = () =>
    api.get<PasskeyRecord[]>('/api/home/passkeys').then(
      (reply) => setListed(reply.data),
      (error) => setFailure(messageOf(error)),
    );
  useEffect(() => void load(), []);
  const add = async ({ name, password, totp }: Record<string, string>) => {
    const proof = totp === undefined ? { password } : { password, totp: totp.trim() };
    const options = (await api.post<Parameters<typeof startRegistration>[0]['optionsJSON']>('/api/home/passkeys/options', proof)).data;
    let response;
    try {
      response = await startRegistration({ optionsJSON: options });
    } catch {
      // Cancelled in the browser's dialog, or no authenticator there: nothing was made.
      throw new Error(t('passkeys.notMade'));
    }
    await api.post('/api/home/passkeys', { response, name });
    await load();
  };
  const remove = (record: PasskeyRecord, password: string) =>
    removing.run(async () => {
      await api.delete(`/api/home/passkeys/${record.id}`, { password });
      await load();
      // Its button is gone with it: the focus goes to the section.
      heading.current?.focus();
      return t('passkeys.removed', { name: record.name });
    });
  return (
    <section class="card" aria-labelledby="passkeys-title">
      <h2 id="passkeys-title" ref={heading} tabIndex={-1}>
        {t('passkeys.title')}
      </h2>
      <p class="muted">{t('passkeys.text')}</p>
      {failure && <Notice kind="error">{failure}</Notice>}
      {listed && listed.length === 0 && <p>{t('passkeys.none')}</p>}
      {listed && listed.length > 0 && (
        <ul class="items passkeys">
          {listed.map((record) => (
            <PasskeyItem
              key={record.id}
              record={record}
              busy={removing.busy}
              onRename={async (name) => {
                await api.patch(`/api/home/passkeys/${record.id}`, { name });
                await load();
              }}
              onRemove={(password) => void remove(record, password)}
            />
          ))}
        </ul>
      )}
      <div aria-live="polite">{removing.outcome}</div>
      {apiRoot !== null && !passkeysWorkHere(apiRoot) ? (
        <PasskeysElsewhere apiRoot={apiRoot} />
      ) : (
        <Form submitLabel={t('passkeys.add')} submit={add} resetOnSuccess>
          <Field label={t('passkeys.name')} name="name" required hint={t('passkeys.nameHint')} />
          <Field label={t('twoFactor.yourPassword')} name="password" type="password" required autocomplete="current-password" />
          {props.twoFactor && <Field label={t('twoFactor.eitherCode')} name="totp" required autocomplete="one-time-code" />}
        </Form>
      )}
    </section>
  );
}

function PasskeyItem(props: {
  record: PasskeyRecord;
  busy: boolean;
  onRename: (name: string) => Promise<void>;
  onRemove: (password: string) => void;
}) {
  const { record } = props;
  const [asking, setAsking] = useState(false);
  const [password, setPassword] = useState('');
  const [passwordId] = useState(() => uniqueId('passkey-password'));
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
    <li data-passkey={record.id} aria-label={record.name}>
      <div class="grow">
        <InlineRename name={record.name} what="passkey" rename={props.onRename} />
        <small>
          {t('passkeys.added', { when: dateTime(record.created) })} ·{' '}
          {record.last_used === null ? t('passkeys.neverUsed') : t('passkeys.lastUsed', { when: dateTime(record.last_used) })}
          {record.synced && <> · {t('passkeys.synced')}</>}
        </small>
      </div>
      <div class="actions">
        <button
          ref={button}
          type="button"
          class="danger"
          aria-label={t('passkeys.removeLabel', { name: record.name })}
          disabled={asking || props.busy}
          onClick={() => setAsking(true)}
        >
          {t('passkeys.remove')}
        </button>
      </div>
      {asking && (
        <Confirmation
          confirmLabel={t('passkeys.removeConfirm', { name: record.name })}
          danger
          fields={
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
          }
          onConfirm={confirm}
          onCancel={cancel}
        >
          {t('passkeys.removeQuestion', { name: record.name })}
        </Confirmation>
      )}
    </li>
  );
}

/**
 * The admin console's part: remove every passkey of a player below the admin's level (a lost device). The console does
 * not know how many a player has; the answer says how many went.
 */
export function AdminPasskeys(props: { userId: number; name: string; mayRemove: boolean }) {
  const [asking, setAsking] = useState(false);
  const action = useAction();
  const remove = () =>
    action.run(async () => {
      setAsking(false);
      const reply = await api.delete<{ removed: number }>(`/api/admin/user/${props.userId}/passkeys`);
      return t('admin:passkeys.removed', { count: reply.data.removed, name: props.name });
    });
  if (!props.mayRemove) return null;
  return (
    <div role="group" aria-labelledby="user-passkeys-heading">
      <h3 id="user-passkeys-heading">{t('admin:passkeys.title')}</h3>
      <button type="button" class="secondary small" disabled={asking || action.busy} onClick={() => setAsking(true)}>
        {t('admin:passkeys.remove')}
      </button>
      {asking && (
        <Confirmation confirmLabel={t('admin:passkeys.remove')} danger onConfirm={() => void remove()} onCancel={() => setAsking(false)}>
          {t('admin:passkeys.question', { name: props.name })}
        </Confirmation>
      )}
      <div aria-live="polite">{action.outcome}</div>
    </div>
  );
}
