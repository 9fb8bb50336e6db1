// Registration in one tab (issue 31): the tab that registered keeps the registration's continuation in its
// sessionStorage, so that confirming the code there logs in at once (the password is asked once, at step 1) and
// "send the mail again" is one button. Another tab or browser has none: it confirms, then logs in with the password.
// The login's refusal of an unconfirmed account offers the same "send the mail again" with the login it just tried.
import { api, session } from '../api.ts';
import { useAction } from '../components.tsx';
import { leaveNote } from '../flash.ts';
import { t } from '../i18n.ts';
import { navigate } from '../router.tsx';

/** sessionStorage: one tab's, gone with the tab, never sent anywhere but back to the API. */
const KEY = 'skinservice.registration';

export interface Continuation {
  continuation: string;
  mail: string;
}

export const registrationTab = {
  get(): Continuation | null {
    try {
      const stored: unknown = JSON.parse(sessionStorage.getItem(KEY) ?? 'null');
      if (typeof stored !== 'object' || stored === null) return null;
      const { continuation, mail } = stored as Record<string, unknown>;
      return typeof continuation === 'string' && typeof mail === 'string' ? { continuation, mail } : null;
    } catch {
      return null;
    }
  },
  save(value: Continuation) {
    sessionStorage.setItem(KEY, JSON.stringify(value));
  },
  forget() {
    sessionStorage.removeItem(KEY);
  },
};

/** Keeps what a registration (or a sending again) answered, when it answered a continuation. */
export function keepContinuation(data: unknown, mail: string) {
  const continuation = (data as { continuation?: unknown } | undefined)?.continuation;
  if (typeof continuation === 'string') registrationTab.save({ continuation, mail });
}

/**
 * Confirms a code: with this tab's continuation the answer logs in too (data.jwt), and the page goes on to step 3;
 * without it (another tab, another browser) the player logs in with the password.
 */
export async function confirmCode(code: string) {
  const kept = registrationTab.get();
  const reply = await api.post<{ jwt?: string }>('/api/auth/confirm', kept ? { code, continuation: kept.continuation } : { code });
  const next = reply.url ?? '/register/finish';
  if (reply.data?.jwt) {
    registrationTab.forget();
    session.save(reply.data.jwt);
    navigate(next);
  } else if (session.token()) {
    navigate(next);
  } else {
    leaveNote(t('confirm.confirmed'));
    navigate('/login');
  }
}

/** "Send the mail again" for the tab that registered: one button, no password. */
export function SendAgainFromTab(props: { kept: Continuation }) {
  const action = useAction();
  return (
    <section class="card" aria-labelledby="send-again">
      <h2 id="send-again">{t('confirm.noMail')}</h2>
      <p class="muted">{t('confirm.sendAgainTab', { mail: props.kept.mail })}</p>
      <button
        type="button"
        disabled={action.busy}
        onClick={() =>
          void action.run(async () => {
            const reply = await api.post<{ continuation: string; mail: string }>('/api/auth/confirm/resend', {
              continuation: props.kept.continuation,
            });
            keepContinuation(reply.data, reply.data.mail);
            return t('confirm.sentAgain', { mail: reply.data.mail });
          })
        }
      >
        {t('confirm.sendAgain')}
      </button>
      {action.outcome}
    </section>
  );
}

/**
 * Under the login's refusal of an account whose mail is not confirmed: sends the mail again with the login just
 * tried, then goes to the confirm page, where this tab's confirmation logs in.
 */
export function SendAgainAfterLogin(props: { username: string; password: string }) {
  const action = useAction();
  return (
    <section class="card" aria-labelledby="unconfirmed">
      <p id="unconfirmed">{t('login.unconfirmed')}</p>
      <button
        type="button"
        disabled={action.busy}
        onClick={() =>
          void action.run(async () => {
            const reply = await api.post<{ continuation: string; mail: string }>('/api/auth/confirm/resend', {
              username: props.username,
              password: props.password,
            });
            keepContinuation(reply.data, reply.data.mail);
            leaveNote(t('confirm.sentAgain', { mail: reply.data.mail }));
            navigate('/register/confirm');
          })
        }
      >
        {t('confirm.sendAgain')}
      </button>
      {action.outcome}
    </section>
  );
}

/** Whether a login failure is the refusal of an account whose mail address is not confirmed yet. */
export const isUnconfirmed = (failure: unknown) =>
  typeof failure === 'object' && failure !== null && (failure as { key?: unknown }).key === 'standing.unverified';
