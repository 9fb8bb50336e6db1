// Registration in one browser (issues 31 and 38): the browser that registered keeps the registration's continuation
// in its localStorage, so that confirming the code there (the page it registered in, or the mail's link opened in
// another of its tabs) logs in at once (the password is asked once, at step 1), "send the mail again" is one button,
// and the waiting page notices a confirmation made elsewhere. Another browser has none: its confirm page asks for the
// account's password before it confirms (contract section 15b). The login's refusal of an unconfirmed account
// offers the same "send the mail again" with the login it just tried.
import { useEffect } from 'preact/hooks';
import { api, ApiError, session } from '../api.ts';
import { useAction } from '../components.tsx';
import { leaveNote } from '../flash.ts';
import { t } from '../i18n.ts';
import { navigate } from '../router.tsx';

/** localStorage: this browser's, never sent anywhere but back to the API; it ends with its hour (the service's). */
const KEY = 'skinservice.registration';
/** How often the page that waits asks whether the address was confirmed elsewhere. */
const WATCH_MS = 4000;

export interface Continuation {
  continuation: string;
  mail: string;
}

/** The end (ms) a continuation carries: `<code id>.<user id>.<end>.<HMAC>`. */
const endOf = (continuation: string) => Number(continuation.split('.')[2] ?? 0);

export const pendingRegistration = {
  get(): Continuation | null {
    try {
      const stored: unknown = JSON.parse(localStorage.getItem(KEY) ?? 'null');
      if (typeof stored !== 'object' || stored === null) return null;
      const { continuation, mail } = stored as Record<string, unknown>;
      if (typeof continuation !== 'string' || typeof mail !== 'string') return null;
      if (endOf(continuation) > Date.now()) return { continuation, mail };
      pendingRegistration.forget();
      return null;
    } catch {
      return null;
    }
  },
  save(value: Continuation) {
    try {
      localStorage.setItem(KEY, JSON.stringify(value));
    } catch {
      // Storage refused (a private window's settings): this browser confirms as another one would.
    }
  },
  forget() {
    try {
      localStorage.removeItem(KEY);
    } catch {
      // Nothing was kept.
    }
  },
};

/** Keeps what a registration (or a sending again) answered, when it answered a continuation. */
export function keepContinuation(data: unknown, mail: string): Continuation | null {
  const continuation = (data as { continuation?: unknown } | undefined)?.continuation;
  if (typeof continuation !== 'string') return null;
  const kept = { continuation, mail };
  pendingRegistration.save(kept);
  return kept;
}

/** Whether the service refused a confirmation because the code confirms only with a password chosen now. */
export const needsPassword = (failure: unknown) => failure instanceof ApiError && failure.key === 'accounts.confirmPasswordNeeded';

/**
 * Confirms a registration's code (a link's token, or a typed one with this browser's continuation or the address
 * typed): with this browser's continuation, or a password chosen now, the answer logs in too (data.jwt), and the page
 * goes on to step 3; otherwise the player logs in with the password.
 */
export async function confirmCode(fields: { code: string; mail?: string; password?: string }) {
  const kept = pendingRegistration.get();
  const reply = await api.post<{ jwt?: string }>('/api/auth/confirm', {
    code: fields.code,
    continuation: kept?.continuation,
    mail: fields.mail || kept?.mail,
    password: fields.password || undefined,
  });
  const next = reply.url ?? '/register/finish';
  if (reply.data?.jwt) {
    pendingRegistration.forget();
    session.save(reply.data.jwt);
    navigate(next);
  } else {
    leaveNote(t('confirm.confirmed'));
    navigate('/login');
  }
}

/**
 * While the page of the browser that registered waits for the code: asks the service every few seconds (and when the
 * page is shown again, or another tab of this browser changed what it keeps) whether the address was confirmed. On
 * another device or in another browser: the player is sent to log in with a note; in another tab of this browser,
 * which was logged in by confirming: on to step 3 with that login.
 */
export function useConfirmationElsewhere(kept: Continuation | null) {
  useEffect(() => {
    if (!kept) return;
    const tokenBefore = session.token();
    let stopped = false;
    const check = async () => {
      if (stopped || document.visibilityState === 'hidden') return;
      let state: string;
      try {
        state = (await api.post<{ state: string }>('/api/auth/confirm/status', { continuation: kept.continuation })).data.state;
      } catch {
        return; // The network or a limit: the next round asks again.
      }
      if (stopped || state === 'waiting') return;
      stopped = true;
      pendingRegistration.forget();
      if (state === 'ended') return;
      const token = session.token();
      if (token !== null && token !== tokenBefore) {
        navigate('/register/finish');
      } else {
        leaveNote(t('confirm.confirmedElsewhere'));
        navigate('/login');
      }
    };
    const timer = setInterval(() => void check(), WATCH_MS);
    const checkNow = () => void check();
    document.addEventListener('visibilitychange', checkNow);
    window.addEventListener('storage', checkNow);
    return () => {
      stopped = true;
      clearInterval(timer);
      document.removeEventListener('visibilitychange', checkNow);
      window.removeEventListener('storage', checkNow);
    };
  }, [kept?.continuation]);
}

/** "Send the mail again" for the browser that registered: one button, no password. */
export function SendAgainFromTab(props: { kept: Continuation; onKept: (kept: Continuation) => void }) {
  return (
    <section class="card" aria-labelledby="send-again">
      <h2 id="send-again">{t('confirm.noMail')}</h2>
      <p class="muted">{t('confirm.sendAgainTab', { mail: props.kept.mail })}</p>
      <SendAgainButton
        body={{ continuation: props.kept.continuation }}
        sent={(kept, mail) => {
          if (kept) props.onKept(kept);
          return t('confirm.sentAgain', { mail });
        }}
      />
    </section>
  );
}

/**
 * Under the login's refusal of an account whose mail is not confirmed: sends the mail again with the login just
 * tried, then goes to the confirm page, where this browser's confirmation logs in.
 */
export function SendAgainAfterLogin(props: { username: string; password: string }) {
  return (
    <section class="card" aria-labelledby="unconfirmed">
      <p id="unconfirmed">{t('login.unconfirmed')}</p>
      <SendAgainButton
        body={{ username: props.username, password: props.password }}
        sent={(_kept, mail) => {
          leaveNote(t('confirm.sentAgain', { mail }));
          navigate('/register/confirm');
        }}
      />
    </section>
  );
}

/**
 * The "send the mail again" button (with its outcome under it): asks the service to send the confirmation mail again
 * for `body` (this browser's continuation, or a login), keeps the new continuation in this browser, and hands it and
 * the address to `sent`, whose note (if any) is shown.
 */
function SendAgainButton(props: { body: Record<string, string>; sent: (kept: Continuation | null, mail: string) => string | void }) {
  const action = useAction();
  return (
    <>
      <button
        type="button"
        disabled={action.busy}
        onClick={() =>
          void action.run(async () => {
            const reply = await api.post<{ continuation: string; mail: string }>('/api/auth/confirm/resend', props.body);
            return props.sent(keepContinuation(reply.data, reply.data.mail), reply.data.mail);
          })
        }
      >
        {t('confirm.sendAgain')}
      </button>
      {action.outcome}
    </>
  );
}

/** Whether a login failure is the refusal of an account whose mail address is not confirmed yet. */
export const isUnconfirmed = (failure: unknown) =>
  typeof failure === 'object' && failure !== null && (failure as { key?: unknown }).key === 'standing.unverified';
