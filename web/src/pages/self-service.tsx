// The profile's self-service parts: the account's sessions of every kind with "log out everywhere", and deleting
// the account. Both ask for a confirmation in the page before they act.
import type { RefObject } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { AccountSession } from '../../../src/http/shapes/account-session.ts';
import { api, session } from '../api.ts';
import { Field, Notice, messageOf, useAction } from '../components.tsx';
import { Confirmation } from '../editing.tsx';
import { leaveNote } from '../flash.ts';
import { dateTime, t } from '../i18n.ts';
import { navigate } from '../router.tsx';

const KIND_NAMES: Record<AccountSession['kind'], string> = {
  web: 'sessions.kind.web',
  game: 'sessions.kind.game',
  launcher: 'sessions.kind.launcher',
  oauth: 'sessions.kind.oauth',
};

/** Puts the focus back on `target` when a confirmation closes and took the focused button with it. */
function useFocusWhenClosed(open: boolean, target: RefObject<HTMLElement>) {
  const wasOpen = useRef(false);
  useEffect(() => {
    if (wasOpen.current && !open && document.activeElement === document.body) target.current?.focus();
    wasOpen.current = open;
  }, [open]);
}

export function Sessions() {
  const [sessions, setSessions] = useState<AccountSession[] | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [asking, setAsking] = useState(false);
  const action = useAction();
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    api.get<AccountSession[]>('/api/home/sessions').then(
      (reply) => setSessions(reply.data),
      (error) => setFailure(messageOf(error)),
    );
  }, []);
  useFocusWhenClosed(asking, button);
  const logOutEverywhere = () =>
    action.run(async () => {
      setAsking(false);
      await api.delete('/api/home/sessions');
      session.clear();
      leaveNote(t('sessions.loggedOut'));
      navigate('/login');
    });
  return (
    <section class="card" aria-labelledby="sessions-title">
      <h3 id="sessions-title">{t('sessions.title')}</h3>
      <p class="muted">{t('sessions.text')}</p>
      {failure && <Notice kind="error">{failure}</Notice>}
      {sessions && (
        <ul class="items sessions">
          {sessions.map((listed) => (
            <li key={`${listed.kind}-${listed.id}`} data-session-kind={listed.kind}>
              <div class="grow">
                <strong>
                  {listed.current ? t('sessions.thisBrowser', { kind: t(KIND_NAMES[listed.kind]) }) : t(KIND_NAMES[listed.kind])}
                </strong>
                <small>{t('sessions.period', { since: dateTime(listed.created), until: dateTime(listed.expires) })}</small>
              </div>
            </li>
          ))}
        </ul>
      )}
      <button ref={button} type="button" class="secondary" disabled={asking || action.busy} onClick={() => setAsking(true)}>
        {t('sessions.logOutAll')}
      </button>
      {asking && (
        <Confirmation
          confirmLabel={t('sessions.logOutAllNow')}
          danger
          onConfirm={() => void logOutEverywhere()}
          onCancel={() => setAsking(false)}
        >
          {t('sessions.question')}
        </Confirmation>
      )}
      <div aria-live="polite">{action.outcome}</div>
    </section>
  );
}

export function DeleteAccount(props: { username: string; skins: number; capes: number }) {
  const [password, setPassword] = useState('');
  const [asking, setAsking] = useState(false);
  const action = useAction();
  const passwordField = useRef<HTMLDivElement>(null);
  const submit = useRef<HTMLButtonElement>(null);
  useFocusWhenClosed(asking, submit);
  const remove = () =>
    action.run(async () => {
      setAsking(false);
      try {
        await api.delete('/api/home', { password });
      } catch (error) {
        passwordField.current?.querySelector('input')?.focus();
        throw error;
      }
      session.clear();
      leaveNote(t('deleteAccount.deleted', { name: props.username }));
      navigate('/');
    });
  return (
    <section class="card" aria-labelledby="delete-account-title">
      <h3 id="delete-account-title">{t('deleteAccount.title')}</h3>
      <form
        class="form"
        onSubmit={(event) => {
          event.preventDefault();
          setAsking(true);
        }}
      >
        <div ref={passwordField}>
          <Field
            label={t('twoFactor.yourPassword')}
            name="password"
            type="password"
            required
            autocomplete="current-password"
            value={password}
            onInput={setPassword}
          />
        </div>
        <button ref={submit} type="submit" class="danger" disabled={asking || action.busy}>
          {t('deleteAccount.title')}
        </button>
      </form>
      {asking && (
        <Confirmation confirmLabel={t('deleteAccount.confirm')} danger onConfirm={() => void remove()} onCancel={() => setAsking(false)}>
          {t('deleteAccount.question', {
            name: props.username,
            skins: t('deleteAccount.skins', { count: props.skins }),
            capes: t('deleteAccount.capes', { count: props.capes }),
          })}
        </Confirmation>
      )}
      <div aria-live="polite">{action.outcome}</div>
    </section>
  );
}
