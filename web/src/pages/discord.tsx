// Discord (contract section 11): the profile's Discord part (link, unlink), the login page's "Log in with Discord",
// the page /discord where a Discord login or link ends (the one-time code exchanged for a session, asking for the
// second factor when the account has one; or what went wrong, in words), and the linked account as the admin
// console shows it. The avatar is Discord's image on its CDN; where it cannot load, the initial stands in.
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, ApiError, session, type UserDetail } from '../api.ts';
import { Confirmation, Field, Form, Notice, Page, messageOf, useAction } from '../components.tsx';
import { t } from '../i18n.ts';
import { Link, navigate, useLocation } from '../router.tsx';
import './discord.css';

let enabledRequest: Promise<boolean> | null = null;

/** Whether the service has the Discord login set up: asked once per page load; null until it answered. */
function useDiscordEnabled(): boolean | null {
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

/** A Discord avatar, or the name's initial when there is none or the image does not load (a firewall, Discord down). */
export function DiscordAvatar(props: { url: string; name: string; size?: number }) {
  const [failed, setFailed] = useState(false);
  const size = props.size ?? 40;
  if (!props.url || failed)
    return (
      <span class="discord-avatar initial" style={{ width: `${size}px`, height: `${size}px` }} aria-hidden="true">
        {props.name.slice(0, 1).toUpperCase()}
      </span>
    );
  return (
    <img
      class="discord-avatar"
      src={`${props.url}?size=${size <= 64 ? 64 : 128}`}
      width={size}
      height={size}
      alt={t('discord.avatarOf', { name: props.name })}
      referrerpolicy="no-referrer"
      onError={() => setFailed(true)}
    />
  );
}

/** The linked account: avatar and name. */
function LinkedAccount(props: { discord: UserDetail['Discord'] }) {
  return (
    <p class="discord-account">
      <DiscordAvatar url={props.discord.avatar} name={props.discord.username} />
      <span>
        <strong>{props.discord.username}</strong>
        <small class="muted">{t('discord.accountId', { id: props.discord.userid })}</small>
      </span>
    </p>
  );
}

/**
 * The profile's Discord part: link one (the password, and the code when two-factor login is on, then a trip to Discord
 * and back), or show and unlink the linked one.
 */
export function DiscordLink(props: { profile: UserDetail; onChange: () => Promise<void> }) {
  const enabled = useDiscordEnabled();
  const [asking, setAsking] = useState(false);
  const [linking, setLinking] = useState(false);
  const action = useAction();
  const unlinkButton = useRef<HTMLButtonElement>(null);
  const linked = props.profile.Discord_integration;
  const twoFactor = props.profile.TwoFactor;
  // Nothing to offer while the service has no Discord login and nothing is linked.
  if (!linked && !enabled) return null;
  const link = async ({ password, totp }: Record<string, string>) => {
    const reply = await api.post('/api/home/discord', totp === undefined ? { password } : { password, totp: totp.trim() });
    // Discord's own page: a real navigation, away from this app.
    window.location.assign(reply.url!);
  };
  const unlink = () =>
    action.run(async () => {
      setAsking(false);
      await api.delete('/api/home/discord');
      await props.onChange();
      return t('discord.unlinked');
    });
  return (
    <section class="card" aria-labelledby="discord-title">
      <h2 id="discord-title">Discord</h2>
      {linked ? (
        <>
          <LinkedAccount discord={props.profile.Discord} />
          <p class="muted">{t('discord.linkedText')}</p>
          <button ref={unlinkButton} type="button" class="secondary" disabled={action.busy} onClick={() => setAsking(true)}>
            {t('discord.unlink')}
          </button>
          {asking && (
            <Confirmation
              confirmLabel={t('discord.unlink')}
              onConfirm={() => void unlink()}
              onCancel={() => {
                setAsking(false);
                unlinkButton.current?.focus();
              }}
            >
              {t('discord.unlinkQuestion', { name: props.profile.Discord.username })}
            </Confirmation>
          )}
        </>
      ) : linking ? (
        <>
          <p>{twoFactor ? t('discord.linkPasswordCode') : t('discord.linkPassword')}</p>
          <Form submitLabel={t('discord.continueToDiscord')} submit={link}>
            <Field label={t('twoFactor.yourPassword')} name="password" type="password" required autocomplete="current-password" />
            {twoFactor && <Field label={t('twoFactor.eitherCode')} name="totp" required autocomplete="one-time-code" />}
          </Form>
          <button type="button" class="secondary" onClick={() => setLinking(false)}>
            {t('common.cancel')}
          </button>
        </>
      ) : (
        <>
          <p class="muted">{t('discord.linkText')}</p>
          <button type="button" onClick={() => setLinking(true)}>
            {t('discord.link')}
          </button>
        </>
      )}
      {action.outcome}
    </section>
  );
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

/**
 * The admin console's view of a user's Discord link (avatar, name, id) and, for admins, unlinking it (the admin patch
 * `dsid: false`).
 */
export function AdminDiscordLink(props: {
  userId: number;
  name: string;
  discord: UserDetail['Discord'];
  linked: boolean;
  canEdit: boolean;
  onChanged: () => Promise<void>;
}) {
  const [asking, setAsking] = useState(false);
  const action = useAction();
  const unlink = () =>
    action.run(async () => {
      setAsking(false);
      await api.patch(`/api/admin/user/${props.userId}`, { dsid: false });
      await props.onChanged();
      return t('adminParts.discordUnlinked', { name: props.name });
    });
  return (
    <div role="group" aria-labelledby="user-discord-heading">
      <h3 id="user-discord-heading">Discord</h3>
      {props.linked ? <LinkedAccount discord={props.discord} /> : <p class="muted">{t('adminParts.noDiscord')}</p>}
      {props.linked && props.canEdit && (
        <button type="button" class="secondary small" disabled={action.busy} onClick={() => setAsking(true)}>
          {t('discord.unlink')}
        </button>
      )}
      {asking && (
        <Confirmation confirmLabel={t('discord.unlink')} onConfirm={() => void unlink()} onCancel={() => setAsking(false)}>
          {t('adminParts.discordQuestion', { discord: props.discord.username, name: props.name })}
        </Confirmation>
      )}
      {action.outcome}
    </div>
  );
}

/** A cell of the admin user list: the linked Discord account's avatar and name, or nothing. */
export function DiscordCell(props: { discord: { username: string; avatar: string } | null | undefined }) {
  if (!props.discord) return null;
  return (
    <span class="discord-account">
      <DiscordAvatar url={props.discord.avatar} name={props.discord.username} size={24} />
      <span>{props.discord.username}</span>
    </span>
  );
}
