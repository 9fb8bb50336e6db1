// /home: the player's profile, in parts (wardrobe, game, security, account) that the page's own navigation links to;
// each card names its part in CARDS. The wardrobe is in wardrobe.tsx; the game login card gives launchers the API's
// address.
import type { JSX } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, session, type CapeRecord, type SkinRecord, type UserDetail } from '../api.ts';
import { CopyField, Field, Form, Notice, Page, PasswordOwner, messageOf } from '../components.tsx';
import { leaveNote } from '../flash.ts';
import { adoptAccountLanguage, Rich, t, useT } from '../i18n.ts';
import { Link, navigate, sendToLogin } from '../router.tsx';
import { LauncherAddress } from '../launcher-address.tsx';
import { beginReset } from './auth.tsx';
import { DeleteAccount, Sessions } from './self-service.tsx';
import { TwoFactorSection } from './two-factor-settings.tsx';
import { AppPasswordsSection } from './app-passwords.tsx';
import { PasskeysSection } from './passkeys.tsx';
import { DiscordLink } from './discord-account.tsx';
import { OidcIdentities } from './oidc-account.tsx';
import { PremiumLinks } from './premium-account.tsx';
import { ProfilesSection } from './profiles.tsx';
import { WardrobeCards, type WardrobeView } from './wardrobe.tsx';
import { LauncherGrants } from './launcher-grants.tsx';
import { FriendsSection } from './friends.tsx';
import { BlockList, CurrentBans } from './standing.tsx';

interface LoadedProfile {
  profile: UserDetail;
  skins: SkinRecord[];
  capes: CapeRecord[];
  /** The game login's API root, or null if the service did not name one. */
  gameApiRoot: string | null;
}

/** Where launchers find the game login: the service names it on every response (contract section 9). */
const API_LOCATION_HEADER = 'x-authlib-injector-api-location';

async function loadProfile(): Promise<LoadedProfile> {
  const home = await api.get<UserDetail>('/api/home');
  const profile = home.data;
  // The account's stored language (contract section 14): the pages follow it.
  await adoptAccountLanguage(profile.Language);
  // Taken from the service, not from this page's address: the page may be opened by an address other than
  // PUBLIC_URL (127.0.0.1, a LAN address), and games must use PUBLIC_URL, the host their textures are allowed from.
  const location = home.headers.get(API_LOCATION_HEADER);
  const gameApiRoot = location ? new URL(location, window.location.href).href : null;
  if (!profile.Username) return { profile, skins: [], capes: [], gameApiRoot };
  const [skins, capes] = await Promise.all([api.get<SkinRecord[]>('/api/home/skins'), api.get<CapeRecord[]>('/api/home/capes')]);
  return { profile, skins: skins.data, capes: capes.data, gameApiRoot };
}

export async function logOut() {
  await api.post('/api/auth/logout').catch(() => undefined);
  session.clear();
  leaveNote(t('home.loggedOut'));
  navigate('/login');
}

/** The parts of the profile, in page order: each a heading the page's own navigation links to (home.json: parts.*). */
const PARTS = ['wardrobe', 'game', 'security', 'account'] as const;
type Part = (typeof PARTS)[number];

/** What every card of the profile may need: the account, its wardrobe and what the wardrobe shows and dresses. */
interface ProfileView extends LoadedProfile, WardrobeView {}

/**
 * The profile's cards, in page order, each naming its part; `wide` spans the part's columns on a wide screen. A new
 * card is one line here.
 */
const CARDS: {
  id: string;
  part: Part;
  wide?: boolean;
  /** The card's title, when all it does asks for the password: a password-less account sees why instead. */
  asksPassword?: string;
  Card: (view: ProfileView) => JSX.Element | null;
}[] = [
  { id: 'wardrobe', part: 'wardrobe', wide: true, Card: WardrobeCards },
  { id: 'ban', part: 'game', wide: true, Card: () => <CurrentBans /> },
  { id: 'profiles', part: 'game', wide: true, Card: (view) => <ProfilesSection detail={view.profile} onChange={view.reload} /> },
  { id: 'play', part: 'game', Card: (view) => <GameLogin apiRoot={view.gameApiRoot} uuid={view.profile.Uuid} /> },
  {
    id: 'app-passwords',
    part: 'game',
    asksPassword: 'appPasswords.title',
    Card: (view) => <AppPasswordsSection twoFactor={view.profile.TwoFactor} />,
  },
  { id: 'launchers', part: 'game', Card: () => <LauncherGrants /> },
  { id: 'friends', part: 'game', Card: (view) => <FriendsSection profileUuid={view.dressing.Uuid} /> },
  { id: 'blocks', part: 'game', Card: () => <BlockList /> },
  {
    id: 'password',
    part: 'security',
    Card: (view) => (view.profile.HasPassword ? <PasswordCard /> : <SetPasswordCard mail={view.profile.Mail} />),
  },
  {
    id: 'two-factor',
    part: 'security',
    asksPassword: 'twoFactor.title',
    Card: (view) => <TwoFactorSection enabled={view.profile.TwoFactor} onChange={view.reload} />,
  },
  {
    id: 'passkeys',
    part: 'security',
    asksPassword: 'passkeys.title',
    Card: (view) => <PasskeysSection twoFactor={view.profile.TwoFactor} />,
  },
  { id: 'sessions', part: 'security', Card: () => <Sessions /> },
  {
    id: 'mail',
    part: 'account',
    Card: (view) => <MailCard hasMail={view.profile.Mail !== ''} hasPassword={view.profile.HasPassword} />,
  },
  { id: 'discord', part: 'account', Card: (view) => <DiscordLink profile={view.profile} onChange={view.reload} /> },
  { id: 'oidc', part: 'account', Card: (view) => <OidcIdentities profile={view.profile} onChange={view.reload} /> },
  { id: 'premium', part: 'game', Card: (view) => <PremiumLinks profile={view.profile} onChange={view.reload} /> },
  {
    id: 'delete',
    part: 'account',
    asksPassword: 'deleteAccount.title',
    Card: (view) => <DeleteAccount username={view.profile.Username} skins={view.skins.length} capes={view.capes.length} />,
  },
];

export function HomePage() {
  useT();
  const [loaded, setLoaded] = useState<LoadedProfile | null>(null);
  const [tryingOn, setTryingOn] = useState<string | null>(null);
  const [chosen, setChosen] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const load = () =>
    loadProfile().then(
      (loaded) => {
        if (!loaded.profile.Username) navigate('/register/finish', { replace: true });
        else setLoaded(loaded);
        return loaded;
      },
      (error) => {
        if (!session.token()) sendToLogin();
        else setFailure(messageOf(error));
        return null;
      },
    );
  const reload = async () => void (await load());
  useEffect(() => {
    if (!session.token()) sendToLogin();
    else void reload();
  }, []);
  // A link to a part (/home#security) arrives before the page has drawn it: go there once it is drawn.
  const arrived = useRef(false);
  useEffect(() => {
    if (!loaded || arrived.current) return;
    arrived.current = true;
    const part = PARTS.find((name) => `#${name}` === window.location.hash);
    if (part) document.getElementById(part)?.focus();
  }, [loaded]);

  if (failure)
    return (
      <Page title={t('app.homeTitle')}>
        <Notice kind="error">{failure}</Notice>
      </Page>
    );
  if (!loaded)
    return (
      <Page title={t('app.homeTitle')}>
        <p>{t('common.loading')}</p>
      </Page>
    );
  const { profile } = loaded;
  // The chosen profile, while it exists (another tab may have deleted it); the primary one first in the list.
  const dressing = profile.Profiles.find((owned) => owned.Uuid === chosen) ?? profile.Profiles[0]!;
  const view: ProfileView = { ...loaded, reload, load, dressing, choose: setChosen, tryingOn, setTryingOn };

  return (
    <Page
      title={profile.Username}
      wide
      nav={
        <>
          {profile.PermLvl >= 1 && <Link href="/admin">{t('home.admin')}</Link>}
          <button type="button" class="link" onClick={() => void logOut()}>
            {t('home.logOut')}
          </button>
        </>
      }
    >
      {profile.Mail ? <p class="muted">{profile.Mail}</p> : <Notice kind="ok">{t('account.noMail')}</Notice>}
      <PasswordOwner.Provider value={{ mail: profile.Mail, names: [profile.Username, ...profile.Profiles.map((owned) => owned.Username)] }}>
        {/* Plain links to the parts' headings: the browser jumps and moves the focus there by itself. */}
        <nav class="parts-nav" aria-label={t('parts.label')}>
          <ul>
            {PARTS.map((part) => (
              <li key={part}>
                <a href={`#${part}`}>{t(`parts.${part}`)}</a>
              </li>
            ))}
          </ul>
        </nav>
        {PARTS.map((part) => (
          <section key={part} class="part" aria-labelledby={part}>
            <h2 id={part} tabIndex={-1}>
              {t(`parts.${part}`)}
            </h2>
            <div class="part-cards">
              {CARDS.filter((card) => card.part === part).map(({ id, wide, asksPassword, Card }) => (
                <div key={id} class={wide ? 'wide' : undefined}>
                  {asksPassword && !profile.HasPassword ? <PasswordFirstCard id={id} title={t(asksPassword)} /> : <Card {...view} />}
                </div>
              ))}
            </div>
          </section>
        ))}
      </PasswordOwner.Provider>
    </Page>
  );
}

/**
 * Playing with this account: how each kind of launcher gets it, the addresses they need (when the service named its
 * game login), and the player's UUID.
 */
function GameLogin(props: { apiRoot: string | null; uuid: string }) {
  // PUBLIC_URL is the game login root without its /api/yggdrasil/ (contract section 9).
  const siteRoot = props.apiRoot ? props.apiRoot.replace(/\/api\/yggdrasil\/?$/, '') : window.location.origin;
  const launcherDocument = props.apiRoot && `${siteRoot}/api/skin/launcher/${props.uuid}`;
  // CustomSkinLoader's CustomSkinAPI root (src/dropin/csl.ts): it asks {root}{name}.json.
  const cslRoot = `${siteRoot}/csl/`;
  const cslEntry = JSON.stringify({ name: new URL(cslRoot).host, type: 'CustomSkinAPI', root: cslRoot });
  return (
    <section class="card" aria-labelledby="game-login">
      <h3 id="game-login">{t('game.title')}</h3>
      {props.apiRoot && (
        <details open>
          <summary>{t('game.authlib')}</summary>
          <LauncherAddress apiRoot={props.apiRoot} />
        </details>
      )}
      <details>
        <summary>GravitLauncher</summary>
        <p>{t('game.gravit')}</p>
      </details>
      <details>
        <summary>CustomSkinLoader</summary>
        <p>
          <Rich text={t('game.csl')} parts={{ file: (path) => <code>{path}</code> }} />
        </p>
        <pre class="snippet">
          <code>{cslEntry}</code>
        </pre>
        <CopyField label={t('game.cslRoot')} value={cslRoot} />
      </details>
      {launcherDocument && <CopyField label={t('game.launcherDocument')} value={launcherDocument} />}
      <CopyField label={t('game.uuid')} value={props.uuid} />
    </section>
  );
}

function PasswordCard() {
  return (
    <section class="card" aria-labelledby="change-password-title">
      <h3 id="change-password-title">{t('account.password')}</h3>
      <Form
        submitLabel={t('account.password')}
        submit={async ({ current_password, password }) => {
          await api.patch('/api/home', { current_password, password });
          // A password change ends every session, this one too.
          session.clear();
          leaveNote(t('resetConfirm.changed'));
          navigate('/login');
        }}
      >
        <Field label={t('account.currentPassword')} name="current_password" type="password" required autocomplete="current-password" />
        <Field label={t('field.newPassword')} name="password" type="password" required autocomplete="new-password" />
      </Form>
    </section>
  );
}

/**
 * A password-less account (registered through an OpenID Connect provider) has no password to change: it sets its
 * first one by the reset, a code mailed to its address.
 */
function SetPasswordCard(props: { mail: string }) {
  return (
    <section class="card" aria-labelledby="set-password-title">
      <h3 id="set-password-title">{t('account.setPasswordTitle')}</h3>
      <Form submitLabel={t('account.setPasswordSubmit')} submit={() => beginReset(props.mail)}>
        <p>{t('account.noPassword')}</p>
      </Form>
    </section>
  );
}

/** A card whose every form asks for the password, as a password-less account sees it: why, and where to set one. */
function PasswordFirstCard(props: { id: string; title: string }) {
  return (
    <section class="card" aria-labelledby={`${props.id}-password-first`}>
      <h3 id={`${props.id}-password-first`}>{props.title}</h3>
      <p>{t('account.needsPassword')}</p>
    </section>
  );
}

function MailCard(props: { hasMail: boolean; hasPassword: boolean }) {
  return (
    <section class="card" aria-labelledby="change-mail-title">
      <h3 id="change-mail-title">{t(props.hasMail ? 'account.mailTitle' : 'account.addMailTitle')}</h3>
      {props.hasPassword ? <MailForm /> : <p>{t('account.mailNeedsPassword')}</p>}
    </section>
  );
}

function MailForm() {
  return (
    <Form
      resetOnSuccess
      submitLabel={t('account.mailSubmit')}
      submit={async ({ mail, current_password }) => {
        const reply = await api.patch('/api/home', { mail, current_password });
        return reply.msg || t('account.mailSent', { mail });
      }}
    >
      <Field label={t('account.newMail')} name="mail" type="email" required autocomplete="email" />
      <Field label={t('account.currentPassword')} name="current_password" type="password" required autocomplete="current-password" />
    </Form>
  );
}
export { LibraryPage } from './library.tsx';
