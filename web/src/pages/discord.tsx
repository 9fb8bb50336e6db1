// Discord (contract section 11) before the login: the login page's "Log in with Discord", and the page /discord where
// a Discord login or link ends (the one-time code exchanged for a session, asking for the second factor when the
// account has one; or what went wrong, in words). The linked account's parts behind the login are in
// discord-account.tsx, out of the first chunk.
import { useEffect, useState } from 'preact/hooks';
import { api, ApiError, session } from '../api.ts';
import { Field, Form, Notice, Page, messageOf } from '../components.tsx';
import { t } from '../i18n.ts';
import { Link, navigate, useLocation } from '../router.tsx';

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
      <a class="button secondary" href="/api/auth/discord">
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

/** /discord: where the service sends the browser back from Discord. */
export function DiscordPage() {
  const { query } = useLocation();
  const [code] = useState(() => query.get('code'));
  const problem = query.get('problem');
  useEffect(() => {
    // The one-time code stays in this page's memory only: not in the history, not in a bookmark.
    if (code) history.replaceState(null, '', '/discord');
  }, []);
  if (code) return <DiscordExchange code={code} />;
  const loggedIn = session.token() !== null;
  return (
    <Page title="Discord">
      <Notice kind="error">{(PROBLEMS[problem ?? ''] ?? (() => t('discord.problem.none')))()}</Notice>
      <p class="links">
        {loggedIn ? <Link href="/home">{t('discord.backProfile')}</Link> : <Link href="/login">{t('discord.backLogin')}</Link>}
      </p>
    </Page>
  );
}

/** Exchanges a Discord login's one-time code for a session, asking for the authenticator code when the account needs it. */
function DiscordExchange(props: { code: string }) {
  const [needsCode, setNeedsCode] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const exchange = async (totp?: string) => {
    const reply = await api.post<{ jwt: string }>(
      '/api/auth/discord/exchange',
      totp === undefined ? { code: props.code } : { code: props.code, totp },
    );
    session.save(reply.data.jwt);
    navigate(reply.url ?? '/home', { replace: true });
  };
  useEffect(() => {
    exchange().catch((error) => {
      if (error instanceof ApiError && error.data.totp_required === true) setNeedsCode(true);
      else setFailure(messageOf(error));
    });
  }, []);
  if (failure)
    return (
      <Page title={t('discord.login')}>
        <Notice kind="error">{failure}</Notice>
        <p class="links">
          <Link href="/login">{t('discord.backLogin')}</Link>
        </p>
      </Page>
    );
  if (!needsCode)
    return (
      <Page title={t('discord.login')}>
        <p role="status">{t('discord.loggingIn')}</p>
      </Page>
    );
  return (
    <Page title={t('discord.login')}>
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
