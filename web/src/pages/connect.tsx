// Yggdrasil Connect's pages (contract section 18): /device, where a player types (or confirms) the code a launcher
// shows, and /authorize, where the provider sends the browser of a launcher's authorization request. Both show the
// launcher and what it asks, let the player pick the profile it plays as, and approve or refuse.
import { useEffect, useState } from 'preact/hooks';
import type { OAuthRequestRecord } from '../../../src/http/shapes/oauth.ts';
import { api, session } from '../api.ts';
import { Field, Notice, Page, messageOf, useAction } from '../components.tsx';
import { t, useT } from '../i18n.ts';
import { sendToLogin, useLocation } from '../router.tsx';
import { ScopeList } from './launcher-grants.tsx';
import './connect.css';

type RequestRef = { user_code: string } | { uid: string };

/** The page's session: a visitor not logged in is sent to the login page, which brings them back here. */
function useLoggedIn(): boolean {
  const loggedIn = session.token() !== null;
  useEffect(() => {
    if (!loggedIn) sendToLogin();
  }, []);
  return loggedIn;
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
  const action = useAction();
  const choose = request.profiles.length > 1;
  const answer = (approve: boolean) =>
    action.run(async () => {
      const body = { ...props.target, approve, ...(approve && choose && profile ? { profile } : {}) };
      const reply = await api.post<{ redirect: string | null }>('/api/oauth/consent', body);
      props.onAnswered(approve, reply.data.redirect);
    });
  return (
    <section class="card" aria-labelledby="consent-title">
      <h2 id="consent-title">{t('connect.asks', { client: request.client.name })}</h2>
      {props.code && <p>{t('connect.checkCode', { code: props.code })}</p>}
      <ScopeList scopes={request.scopes} />
      <form
        class="form"
        onSubmit={(event) => {
          event.preventDefault();
          void answer(true);
        }}
      >
        {choose && (
          <fieldset class="choices">
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
          <button type="submit" disabled={action.busy}>
            {t('connect.approve')}
          </button>
          <button type="button" class="secondary" disabled={action.busy} onClick={() => void answer(false)}>
            {t('connect.refuse')}
          </button>
        </div>
      </form>
      <div aria-live="polite">{action.outcome}</div>
    </section>
  );
}

/** What the player answered on /device: the launcher goes on by itself (its poll), the page only says so. */
function Answered(props: { approved: boolean; client: string }) {
  return (
    <div role="status">
      <Notice kind="ok">
        {props.approved ? t('connect.approved', { client: props.client }) : t('connect.refused', { client: props.client })}
      </Notice>
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
      const reply = await api.post<OAuthRequestRecord>('/api/oauth/request', { user_code: typed });
      setRequest({ record: reply.data, code: typed });
    });
  // A code from the launcher's link: looked up at once (the player still sees it to compare with the launcher's).
  useEffect(() => {
    if (loggedIn && code.trim()) void look(code.trim());
  }, []);
  if (!loggedIn) return null;
  return (
    <Page title={t('app.connectTitle')}>
      {answered !== null && request ? (
        <Answered approved={answered} client={request.record.client.name} />
      ) : request ? (
        <ConsentView
          request={request.record}
          target={{ user_code: request.code }}
          code={request.code.toUpperCase()}
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
          <Field label={t('connect.codeLabel')} name="user_code" required autocomplete="off" value={code} onInput={setCode} />
          <button type="submit" disabled={action.busy}>
            {t('connect.next')}
          </button>
          <div aria-live="polite">{action.outcome}</div>
        </form>
      )}
    </Page>
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
    api.post<OAuthRequestRecord>('/api/oauth/request', { uid }).then(
      (reply) => setRequest(reply.data),
      (error) => setFailure(messageOf(error)),
    );
  }, []);
  if (!loggedIn) return null;
  return (
    <Page title={t('app.connectTitle')}>
      {failure && <Notice kind="error">{failure}</Notice>}
      {!failure && !request && <p>{t('common.loading')}</p>}
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
    </Page>
  );
}
