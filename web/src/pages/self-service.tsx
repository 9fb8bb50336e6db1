// The profile's self-service parts: the account's sessions of every kind with "log out everywhere", and deleting
// the account. Both ask for a confirmation in the page before they act.
import type { RefObject } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { AccountSession } from '../../../src/http/shapes/account-session.ts';
import { api, session } from '../api.ts';
import { Confirmation, Field, Notice, messageOf, useAction } from '../components.tsx';
import { leaveNote } from '../flash.ts';
import { navigate } from '../router.tsx';

const KIND_NAMES: Record<AccountSession['kind'], string> = {
  web: 'Website login',
  game: 'Game login (launcher with authlib-injector)',
  launcher: 'GravitLauncher login',
};

/** Puts the focus back on `target` when a confirmation closes and took the focused button with it. */
function useFocusWhenClosed(open: boolean, target: RefObject<HTMLElement>) {
  const wasOpen = useRef(false);
  useEffect(() => {
    if (wasOpen.current && !open && document.activeElement === document.body) target.current?.focus();
    wasOpen.current = open;
  }, [open]);
}

const dateOf = (unixSeconds: number) => new Date(unixSeconds * 1000).toLocaleString();

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
      leaveNote('You are logged out everywhere: log in again on each device you use.');
      navigate('/login');
    });
  return (
    <section class="card" aria-labelledby="sessions-title">
      <h2 id="sessions-title">Sessions</h2>
      <p class="muted">Where this account is logged in now: websites, games and launchers.</p>
      {failure && <Notice kind="error">{failure}</Notice>}
      {sessions && (
        <ul class="items sessions">
          {sessions.map((listed) => (
            <li key={`${listed.kind}-${listed.id}`} data-session-kind={listed.kind}>
              <div class="grow">
                <strong>
                  {KIND_NAMES[listed.kind]}
                  {listed.current ? ' · this browser' : ''}
                </strong>
                <small>
                  since {dateOf(listed.created)}, until {dateOf(listed.expires)}
                </small>
              </div>
            </li>
          ))}
        </ul>
      )}
      <button ref={button} type="button" class="secondary" disabled={asking || action.busy} onClick={() => setAsking(true)}>
        Log out everywhere
      </button>
      {asking && (
        <Confirmation
          confirmLabel="Log out everywhere now"
          danger
          onConfirm={() => void logOutEverywhere()}
          onCancel={() => setAsking(false)}
        >
          Log out everywhere? Every session listed here ends, this browser's too: games and launchers must log in again.
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
      leaveNote(`The account ${props.username} is deleted.`);
      navigate('/');
    });
  return (
    <section class="card" aria-labelledby="delete-account-title">
      <h2 id="delete-account-title">Delete my account</h2>
      <form
        class="form"
        onSubmit={(event) => {
          event.preventDefault();
          setAsking(true);
        }}
      >
        <div ref={passwordField}>
          <Field
            label="Your password"
            name="password"
            type="password"
            required
            autocomplete="current-password"
            value={password}
            onInput={setPassword}
          />
        </div>
        <button ref={submit} type="submit" class="danger" disabled={asking || action.busy}>
          Delete my account
        </button>
      </form>
      {asking && (
        <Confirmation confirmLabel="Delete my account for good" danger onConfirm={() => void remove()} onCancel={() => setAsking(false)}>
          Delete the account {props.username} for good? You lose the player name, your {props.skins} skin(s), your {props.capes} cape(s) and
          every session: games and launchers can no longer log in with it. This cannot be undone.
        </Confirmation>
      )}
      <div aria-live="polite">{action.outcome}</div>
    </section>
  );
}
