// Yggdrasil Connect's pages (contract sections 18 and 15b): /device, where a player types (or confirms) the code a
// launcher shows, and /authorize, where the provider sends the browser of a launcher's authorization request. Both say
// which launcher asks and what it will be able to do, warn that only a login the player began is to be allowed, let the
// player pick the profile it plays as, and approve or refuse. Whatever the service answers, the page says what to do
// next: a login that ended goes to the login page and comes back; any other refusal is shown in words, never nothing.
import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { OAuthClientRef, OAuthRequestRecord } from '../../../src/http/shapes/oauth.ts';
import { api, ApiError, session } from '../api.ts';
import { Field, Notice, Page, messageOf, useAction } from '../components.tsx';
import { t, useT } from '../i18n.ts';
import { Link, sendToLogin, useLocation } from '../router.tsx';
import { logOut } from './home.tsx';
import { aboutClient, ScopeList } from './launcher-grants.tsx';
import './connect.css';

type RequestRef = { user_code: string } | { uid: string };

/**
 * Whether the visitor was logged in when the page opened: one not logged in is sent to the login page, which brings
 * them back here. Read once, so that a refusal that ends the session (which forgets the token) still shows the page.
 */
function useLoggedIn(): boolean {
  const [loggedIn] = useState(() => session.token() !== null);
  useEffect(() => {
    if (!loggedIn) sendToLogin();
  }, []);
  return loggedIn;
}

/**
 * Acts on a refusal: a 401 means the login on this site ended (it expired, or was ended elsewhere), so the player logs
 * in again and comes back to this very request; anything else is a message saying what to do (the API's words, or,
 * when the service could not be reached at all, to try again: api.ts).
 */
function failureOf(error: unknown): string | null {
  if (error instanceof ApiError && error.status === 401) {
    sendToLogin();
    return null;
  }
  return messageOf(error);
}

/** A user code as launchers show it: upper case, XXXX-XXXX (as typed when it cannot be one). */
export function shownUserCode(typed: string): string {
  const letters = typed.replace(/[\s-]/g, '').toUpperCase();
  return /^[0-9A-Z]{8}$/.test(letters) ? `${letters.slice(0, 4)}-${letters.slice(4)}` : typed.trim().toUpperCase();
}

/** The header's links of a logged-in player: the profile, and logging out. */
function PlayerLinks() {
  return (
    <>
      <Link href="/home">{t('connect.profile')}</Link>
      <button type="button" class="link" onClick={() => void logOut()}>
        {t('home.logOut')}
      </button>
    </>
  );
}

function ConnectPage(props: { children: ComponentChildren }) {
  return (
    <Page title={t('app.connectTitle')} nav={<PlayerLinks />}>
      {props.children}
    </Page>
  );
}

/**
 * The launcher's request and the player's answer. `onAnswered` gets the API's `redirect` and whether the player
 * approved. A profile is chosen only among several: the API takes an account's one profile by itself.
 */
function ConsentView(props: {
  request: OAuthRequestRecord;
  target: RequestRef;
  code?: string;
  onAnswered: (approved: boolean, redirect: string | null) => void;
}) {
  const { request } = props;
  const [profile, setProfile] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const choose = request.profiles.length > 1;
  const answer = async (approve: boolean) => {
    setBusy(true);
    setFailure(null);
    try {
      const body = { ...props.target, approve, ...(approve && choose && profile ? { profile } : {}) };
      const reply = await api.post<{ redirect: string | null }>('/api/oauth/consent', body);
      props.onAnswered(approve, reply.data.redirect);
    } catch (error) {
      setFailure(failureOf(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section class="card" aria-labelledby="consent-title" aria-describedby="consent-warning">
      <h2 id="consent-title">{aboutClient('connect.asks', request.client)}</h2>
      {props.code && <p>{t('connect.checkCode', { code: props.code })}</p>}
      <p id="consent-warning" class="consent-warning">
        {t(props.code ? 'connect.onlyYoursCode' : 'connect.onlyYoursLink')}
      </p>
      <ScopeList scopes={request.scopes} label={aboutClient('connect.scopesOf', request.client)} />
      <form
        class="form"
        onSubmit={(event) => {
          event.preventDefault();
          void answer(true);
        }}
      >
        {choose && (
          <fieldset class="radio-list choices">
            <legend>{t('connect.profileLegend')}</legend>
            {request.profiles.map((listed) => (
              <label key={listed.id}>
                <input
                  type="radio"
                  name="profile"
                  value={listed.id}
                  required
                  checked={profile === listed.id}
                  onChange={() => setProfile(listed.id)}
                />
                {listed.name}
              </label>
            ))}
          </fieldset>
        )}
        {request.profiles.length === 1 && <p>{t('connect.playsAs', { name: request.profiles[0]!.name })}</p>}
        <div class="actions">
          <button type="submit" disabled={busy}>
            {t('connect.approve')}
          </button>
          <button type="button" class="secondary" disabled={busy} onClick={() => void answer(false)}>
            {t('connect.refuse')}
          </button>
        </div>
      </form>
      <div aria-live="polite">{failure && <Notice kind="error">{failure}</Notice>}</div>
    </section>
  );
}

/** What the player answered on /device: the launcher goes on by itself (its poll), the page only says so. */
function Answered(props: { approved: boolean; client: OAuthClientRef }) {
  return (
    <div role="status">
      <Notice kind="ok">{aboutClient(props.approved ? 'connect.approved' : 'connect.refused', props.client)}</Notice>
      <p class="links">
        <Link href="/home">{t('connect.toProfile')}</Link>
      </p>
    </div>
  );
}

export function DevicePage() {
  useT();
  const { query } = useLocation();
  const loggedIn = useLoggedIn();
  const [code, setCode] = useState(query.get('user_code') ?? '');
  const [request, setRequest] = useState<{ record: OAuthRequestRecord; code: string } | null>(null);
  const [answered, setAnswered] = useState<boolean | null>(null);
  const action = useAction();
  const look = (typed: string) =>
    action.run(async () => {
      try {
        const reply = await api.post<OAuthRequestRecord>('/api/oauth/request', { user_code: typed });
        setRequest({ record: reply.data, code: typed });
      } catch (error) {
        const failure = failureOf(error);
        if (failure !== null) throw new Error(failure);
      }
    });
  // A code from the launcher's link: looked up at once (the player still sees it to compare with the launcher's).
  useEffect(() => {
    if (loggedIn && code.trim()) void look(code.trim());
  }, []);
  if (!loggedIn) return null;
  return (
    <ConnectPage>
      {answered !== null && request ? (
        <Answered approved={answered} client={request.record.client} />
      ) : request ? (
        <ConsentView
          request={request.record}
          target={{ user_code: request.code }}
          code={shownUserCode(request.code)}
          onAnswered={(approved) => setAnswered(approved)}
        />
      ) : (
        <form
          class="form"
          onSubmit={(event) => {
            event.preventDefault();
            void look(code.trim());
          }}
        >
          <p>{t('connect.codeText')}</p>
          <p class="consent-warning">{t('connect.onlyYoursCode')}</p>
          <Field label={t('connect.codeLabel')} name="user_code" required autocomplete="off" value={code} onInput={setCode} />
          <button type="submit" disabled={action.busy}>
            {t('connect.next')}
          </button>
          <div aria-live="polite">{action.outcome}</div>
        </form>
      )}
    </ConnectPage>
  );
}

export function AuthorizePage() {
  useT();
  const { query } = useLocation();
  const loggedIn = useLoggedIn();
  const uid = query.get('uid') ?? '';
  const [request, setRequest] = useState<OAuthRequestRecord | null>(null);
  const [leaving, setLeaving] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  useEffect(() => {
    if (!loggedIn) return;
    if (!uid) return setFailure(t('connect.noRequest'));
    api.post<OAuthRequestRecord>('/api/oauth/request', { uid }).then(
      (reply) => setRequest(reply.data),
      (error) => setFailure(failureOf(error)),
    );
  }, []);
  if (!loggedIn) return null;
  return (
    <ConnectPage>
      {failure && (
        <>
          <Notice kind="error">{failure}</Notice>
          <p class="links">
            <Link href="/home">{t('connect.toProfile')}</Link>
          </p>
        </>
      )}
      {!failure && !request && <p role="status">{t('common.loading')}</p>}
      {leaving ? (
        <p role="status">{t('connect.leaving')}</p>
      ) : (
        request && (
          <ConsentView
            request={request}
            target={{ uid }}
            onAnswered={(_approved, redirect) => {
              // Back to the provider, which sends the browser on to the launcher's redirect: it leaves this app.
              if (redirect) {
                setLeaving(true);
                location.assign(redirect);
              }
            }}
          />
        )
      )}
    </ConnectPage>
  );
}
