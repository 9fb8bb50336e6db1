// /oidc: where a login or link through an OpenID Connect provider ends (contract section 26): the one-time code
// exchanged for a session, or what went wrong, in words. The page is Discord's (discord.tsx) with its own words.
import { useEffect, useState } from 'preact/hooks';
import { api, session } from '../api.ts';
import { Field, Form, Notice, Page, messageOf } from '../components.tsx';
import { leaveNote } from '../flash.ts';
import { t, useT } from '../i18n.ts';
import { afterLogin, Link, navigate, useLocation } from '../router.tsx';
import { ExternalLoginPage, rememberLoginTarget, type ExternalLogin } from './discord.tsx';

const OIDC: ExternalLogin = {
  path: '/oidc',
  exchange: '/api/auth/oidc/exchange',
  title: () => t('oidc.login'),
  problems: Object.fromEntries(
    ['denied', 'refused', 'state', 'browser', 'taken', 'unavailable', 'account', 'untrusted'].map((problem) => [
      problem,
      () => t(`oidc.problem.${problem}`),
    ]),
  ),
  none: () => t('oidc.problem.none'),
};

export function OidcPage() {
  return <ExternalLoginPage kind={OIDC} />;
}

/** On the login page: why a login through a provider came back there. */
export function OidcLoginNote() {
  const { query } = useLocation();
  if (query.get('oidc') !== 'not-linked') return null;
  return <Notice kind="error">{t('oidc.notLinked')}</Notice>;
}

/** A provider of OIDC_PROVIDERS whose discovery has answered, as GET /api/auth/oidc lists it. */
export interface OidcProvider {
  id: string;
  name: string;
  register: boolean;
}

let providersRequest: Promise<OidcProvider[]> | null = null;

/** The providers one can log in with: asked once per page load; empty until it answered (or when it failed). */
export function useOidcProviders(): OidcProvider[] {
  const [providers, setProviders] = useState<OidcProvider[]>([]);
  useEffect(() => {
    providersRequest ??= api.get<{ providers: OidcProvider[] }>('/api/auth/oidc').then(
      (reply) => reply.data.providers,
      () => {
        providersRequest = null;
        return [];
      },
    );
    let current = true;
    void providersRequest.then((found) => current && setProviders(found));
    return () => void (current = false);
  }, []);
  return providers;
}

/** Under the login form: "Log in with {name}" for each provider, the same look as Discord's. */
export function OidcLoginButtons() {
  const providers = useOidcProviders();
  return (
    <>
      {providers.map((provider) => (
        <p class="discord-login" key={provider.id}>
          {/* A real navigation: the service sends the browser on to the provider. */}
          <a class="button secondary" href={`/api/auth/oidc/${encodeURIComponent(provider.id)}`} onClick={rememberLoginTarget}>
            {t('oidc.loginWith', { name: provider.name })}
          </a>
        </p>
      ))}
    </>
  );
}

/** sessionStorage: the invitation the register page was opened with, for the page that finishes a provider's registration. */
const INVITE_KEY = 'skinservice.oidc-invite';

/** On the registration page: "Register with {name}" for each provider that lets people register (OIDC_{ID}_REGISTER). */
export function OidcRegisterButtons(props: { invite: string | undefined }) {
  const providers = useOidcProviders().filter((provider) => provider.register);
  if (providers.length === 0) return null;
  const keepInvite = () => {
    try {
      if (props.invite) sessionStorage.setItem(INVITE_KEY, props.invite);
      else sessionStorage.removeItem(INVITE_KEY);
    } catch {
      // Storage refused: the page asks for the invitation instead.
    }
  };
  return (
    <>
      {providers.map((provider) => (
        <p class="discord-login" key={provider.id}>
          {/* A real navigation: the service sends the browser on to the provider. */}
          <a class="button secondary" href={`/api/auth/oidc/${encodeURIComponent(provider.id)}/register`} onClick={keepInvite}>
            {t('oidc.registerWith', { name: provider.name })}
          </a>
        </p>
      ))}
    </>
  );
}

const REGISTER_PROBLEMS = ['not-offered', 'closed', 'no-mail', 'mail-taken'];

/** On the registration page: why a registration through a provider came back there. */
export function OidcRegisterNote() {
  const { query } = useLocation();
  const problem = query.get('oidc');
  if (problem === null || !REGISTER_PROBLEMS.includes(problem)) return null;
  return <Notice kind="error">{t(`oidc.register.${problem}`)}</Notice>;
}

interface TicketDetails {
  provider: string;
  mail: string;
  mail_verified: boolean;
  suggested_name: string;
}

/**
 * /register/oidc?ticket=: the provider sent the browser back with who they are there; the player picks the profile
 * name (and, if they like, a password) and the account is made. A verified mail logs in at once; any other is mailed
 * a code first.
 */
export function OidcRegisterPage() {
  useT();
  const ticket = useLocation().query.get('ticket') ?? '';
  const [details, setDetails] = useState<TicketDetails | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const invite = (() => {
    try {
      return sessionStorage.getItem(INVITE_KEY) ?? '';
    } catch {
      return '';
    }
  })();
  useEffect(() => {
    // Opened without the provider's ticket (typed, or from a bookmark): nothing to ask the service, whose 401 for a
    // missing ticket would also end the session of a logged-in visitor.
    if (!ticket) {
      setFailure(t('oidc.problem.none'));
      return;
    }
    api.post<TicketDetails>('/api/auth/oidc/registration', { ticket }).then(
      (reply) => setDetails(reply.data),
      (error: unknown) => setFailure(messageOf(error)),
    );
  }, [ticket]);
  return (
    <Page title={t('oidc.register.title')}>
      {failure && (
        <>
          <Notice kind="error">{failure}</Notice>
          <p class="links">
            <Link href="/register">{t('oidc.register.again')}</Link>
          </p>
        </>
      )}
      {!failure && !details && <p>{t('common.loading')}</p>}
      {details && (
        <>
          <p>{t('oidc.register.from', { provider: details.provider, mail: details.mail })}</p>
          <p class="muted">{t(details.mail_verified ? 'oidc.register.verified' : 'oidc.register.unverified')}</p>
          <Form
            submitLabel={t('oidc.register.submit')}
            submit={async ({ username, password, invite: typed }) => {
              const reply = await api.post<{ mailed: boolean; jwt?: string; mail?: string }>('/api/auth/oidc/register', {
                ticket,
                username,
                password: password || undefined,
                invite: typed || invite || undefined,
              });
              try {
                sessionStorage.removeItem(INVITE_KEY);
              } catch {
                // Nothing was kept.
              }
              if (reply.data.jwt) {
                session.save(reply.data.jwt);
                navigate(afterLogin(reply.url));
              } else {
                leaveNote(t('oidc.register.mailed', { mail: reply.data.mail ?? details.mail }));
                navigate('/mail/confirm');
              }
            }}
          >
            <Field
              label={t('finish.username')}
              name="username"
              required
              autocomplete="username"
              value={details.suggested_name}
              hint={t('finish.usernameHint')}
            />
            <Field
              label={t('oidc.register.password')}
              name="password"
              type="password"
              autocomplete="new-password"
              hint={t('oidc.register.passwordHint')}
              reveal
            />
            {!invite && <Field label={t('oidc.register.invite')} name="invite" hint={t('oidc.register.inviteHint')} />}
          </Form>
        </>
      )}
    </Page>
  );
}
