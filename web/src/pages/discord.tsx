// Discord (contract section 11) before the login: the login page's "Log in with Discord", and the page /discord where
// a Discord login or link ends (the one-time code exchanged for a session, asking for the second factor when the
// account has one; or what went wrong, in words). The linked account's parts behind the login are in
// discord-account.tsx, out of the first chunk.
import { useEffect, useState } from 'preact/hooks';
import { api, ApiError, session } from '../api.ts';
import { Field, Form, Notice, Page, messageOf } from '../components.tsx';
import { t } from '../i18n.ts';
import { Link, loginTarget, navigate, useLocation } from '../router.tsx';

/** sessionStorage: the page a login through another site was begun for (/login?next=), to land on after it. */
const TARGET_KEY = 'skinservice.external-login-next';

/** On a login button's click: keeps the login page's `next` across the trip to the other site and back. */
export function rememberLoginTarget() {
  try {
    const target = loginTarget();
    if (target) sessionStorage.setItem(TARGET_KEY, target);
    else sessionStorage.removeItem(TARGET_KEY);
  } catch {
    // Storage refused: the login lands on the profile.
  }
}

/** Where an external login lands: the API's `url`, unless it is the profile and a page was waiting for the login. */
function landing(url: string | null): string {
  let kept: string | null = null;
  try {
    kept = sessionStorage.getItem(TARGET_KEY);
    sessionStorage.removeItem(TARGET_KEY);
  } catch {
    // Nothing was kept.
  }
  // Checked again as the login page checks `next`: a path of this site only.
  const target = kept === null ? null : loginTarget(new URLSearchParams({ next: kept }));
  const pointed = url === null ? '/home' : new URL(url, location.href).pathname;
  return pointed === '/home' && target !== null ? target : (url ?? '/home');
}

let enabledRequest: Promise<boolean> | null = null;

/** Whether the service has the Discord login set up: asked once per page load; null until it answered. */
export function useDiscordEnabled(): boolean | null {
  const [enabled, setEnabled] = useState<boolean | null>(null);
  useEffect(() => {
    enabledRequest ??= api.get<{ enabled: boolean }>('/api/auth/discord/status').then(
      (reply) => reply.data.enabled,
      () => false,
    );
    let current = true;
    void enabledRequest.then((found) => current && setEnabled(found));
    return () => void (current = false);
  }, []);
  return enabled;
}

/** On the login page: why a Discord login came back there. */
export function DiscordLoginNote() {
  const { query } = useLocation();
  if (query.get('discord') !== 'not-linked') return null;
  return <Notice kind="error">{t('discord.notLinked')}</Notice>;
}

/** Under the login form: "Log in with Discord" when the service has it. */
export function DiscordLoginButton() {
  const enabled = useDiscordEnabled();
  if (!enabled) return null;
  return (
    <p class="discord-login">
      {/* A real navigation: the service sends the browser on to Discord. */}
      <a class="button secondary" href="/api/auth/discord" onClick={rememberLoginTarget}>
        {t('discord.login')}
      </a>
    </p>
  );
}

/** What went wrong on the way through Discord, in the player's words; nothing was changed in any case. */
const PROBLEMS: Record<string, () => string> = {
  denied: () => t('discord.problem.denied'),
  refused: () => t('discord.problem.refused'),
  state: () => t('discord.problem.state'),
  browser: () => t('discord.problem.browser'),
  taken: () => t('discord.problem.taken'),
  unavailable: () => t('discord.problem.unavailable'),
  account: () => t('discord.problem.account'),
};

/** A login through another site (Discord, an OpenID Connect provider): where its page is, and its words. */
export interface ExternalLogin {
  path: string;
  exchange: string;
  title: () => string;
  problems: Record<string, () => string>;
  none: () => string;
}

const DISCORD: ExternalLogin = {
  path: '/discord',
  exchange: '/api/auth/discord/exchange',
  title: () => t('discord.login'),
  problems: PROBLEMS,
  none: () => t('discord.problem.none'),
};

/** /discord: where the service sends the browser back from Discord. */
export function DiscordPage() {
  return <ExternalLoginPage kind={DISCORD} />;
}

/** Where the service sends the browser back from the other site: the login's code exchanged, or what went wrong. */
export function ExternalLoginPage({ kind }: { kind: ExternalLogin }) {
  const { query } = useLocation();
  const [code] = useState(() => query.get('code'));
  const problem = query.get('problem');
  useEffect(() => {
    // The one-time code stays in this page's memory only: not in the history, not in a bookmark.
    if (code) history.replaceState(null, '', kind.path);
  }, []);
  if (code) return <Exchange code={code} kind={kind} />;
  const loggedIn = session.token() !== null;
  return (
    <Page title={kind.title()}>
      <Notice kind="error">{(kind.problems[problem ?? ''] ?? kind.none)()}</Notice>
      <p class="links">
        {loggedIn ? <Link href="/home">{t('discord.backProfile')}</Link> : <Link href="/login">{t('discord.backLogin')}</Link>}
      </p>
    </Page>
  );
}

/** Exchanges a login's one-time code for a session, asking for the authenticator code when the account needs it. */
function Exchange(props: { code: string; kind: ExternalLogin }) {
  const [needsCode, setNeedsCode] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const exchange = async (totp?: string) => {
    const reply = await api.post<{ jwt: string }>(
      props.kind.exchange,
      totp === undefined ? { code: props.code } : { code: props.code, totp },
    );
    session.save(reply.data.jwt);
    navigate(landing(reply.url), { replace: true });
  };
  useEffect(() => {
    exchange().catch((error) => {
      if (error instanceof ApiError && error.data.totp_required === true) setNeedsCode(true);
      else setFailure(messageOf(error));
    });
  }, []);
  if (failure)
    return (
      <Page title={props.kind.title()}>
        <Notice kind="error">{failure}</Notice>
        <p class="links">
          <Link href="/login">{t('discord.backLogin')}</Link>
        </p>
      </Page>
    );
  if (!needsCode)
    return (
      <Page title={props.kind.title()}>
        <p role="status">{t('discord.loggingIn')}</p>
      </Page>
    );
  return (
    <Page title={props.kind.title()}>
      <p>{t('discord.needsCode')}</p>
      <Form
        submitLabel={t('login.submit')}
        submit={async ({ totp }) => {
          try {
            await exchange(totp!.trim());
          } catch (error) {
            // A wrong code uses the Discord login up: only a new one can go on.
            if (error instanceof ApiError && error.status === 401) setFailure(messageOf(error));
            else throw error;
          }
        }}
      >
        <Field label={t('discord.codeLabel')} name="totp" required autocomplete="one-time-code" />
      </Form>
    </Page>
  );
}
