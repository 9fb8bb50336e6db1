// The browser app: one page component per path. The server answers each of these paths with index.html.
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { Notice, Page } from './components.tsx';
import { loadNamespace, ready, Rich, t, useT } from './i18n.ts';
import {
  LoginPage,
  MailConfirmPage,
  RegisterConfirmPage,
  RegisterFinishPage,
  RegisterPage,
  ResetConfirmPage,
  ResetPage,
} from './pages/auth.tsx';
import { DiscordPage } from './pages/discord.tsx';
import { OidcPage, OidcRegisterPage } from './pages/oidc.tsx';
import { FrontPage } from './pages/front.tsx';
import { Link, useLocation } from './router.tsx';
import type { PagePath } from '../../src/shared/pages.ts';
import './style.css';

type PageComponent = () => preact.JSX.Element | null;

/**
 * A page whose code is downloaded when it is first opened: the profile and the admin console are most of the app's
 * code, and a visitor of /login or /register needs neither (the login page's budget, docs/performance.md). Until it
 * is there, a frame with the page's own title; if the focus was on that heading, the page's heading takes it over.
 */
function lazyPage(titleKey: string, load: () => Promise<PageComponent>): PageComponent {
  let loading: Promise<PageComponent> | null = null;
  let loaded: PageComponent | null = null;
  return function LazyPage() {
    const [component, setComponent] = useState<PageComponent | null>(() => loaded);
    const [failed, setFailed] = useState(false);
    useEffect(() => {
      if (component) return;
      let current = true;
      loading ??= load().then((found) => (loaded = found));
      loading.then(
        (found) => {
          if (!current) return;
          const headingFocused = document.activeElement?.matches('main h1') ?? false;
          setComponent(() => found);
          if (headingFocused) setTimeout(() => document.querySelector<HTMLElement>('main h1')?.focus());
        },
        () => {
          loading = null;
          if (current) setFailed(true);
        },
      );
      return () => void (current = false);
    }, []);
    if (component) {
      const Loaded = component;
      return <Loaded />;
    }
    return <Page title={t(titleKey)}>{failed ? <Notice kind="error">{t('app.loadFailed')}</Notice> : <p>{t('common.loading')}</p>}</Page>;
  };
}

/** A page's code and the words of the pages behind the login (home.json), fetched side by side. */
const withHomeWords = <Loaded,>(load: Promise<Loaded>): Promise<Loaded> =>
  Promise.all([load, loadNamespace('home')]).then(([loaded]) => loaded);
const HomePage = lazyPage('app.homeTitle', () => withHomeWords(import('./pages/home.tsx')).then((module) => module.HomePage));
const DevicePage = lazyPage('app.connectTitle', () => withHomeWords(import('./pages/connect.tsx')).then((module) => module.DevicePage));
const AuthorizePage = lazyPage('app.connectTitle', () =>
  withHomeWords(import('./pages/connect.tsx')).then((module) => module.AuthorizePage),
);
const LibraryPage = lazyPage('nav.library', () => withHomeWords(import('./pages/home.tsx')).then((module) => module.LibraryPage));
const AdminPage = lazyPage('app.adminTitle', () => withHomeWords(import('./pages/admin/console.tsx')).then((module) => module.AdminPage));

// Every page path the server answers with this app has its page here, and none other (the type checks both ways).
const PAGES: Record<string, PageComponent> = {
  '/': FrontPage,
  '/login': LoginPage,
  '/register': RegisterPage,
  '/register/confirm': RegisterConfirmPage,
  '/register/finish': RegisterFinishPage,
  '/reset': ResetPage,
  '/reset/confirm': ResetConfirmPage,
  '/mail/confirm': MailConfirmPage,
  '/home': HomePage,
  '/library': LibraryPage,
  '/discord': DiscordPage,
  '/oidc': OidcPage,
  '/register/oidc': OidcRegisterPage,
  '/admin': AdminPage,
  '/device': DevicePage,
  '/authorize': AuthorizePage,
} satisfies Record<PagePath, PageComponent>;

function App() {
  useT();
  const { path } = useLocation();
  const Current = PAGES[path];
  // The server answers unknown page paths with this app and a 404 status.
  if (!Current)
    return (
      <Page title={t('app.notFoundTitle')}>
        <p>
          <Rich text={t('app.notFound')} parts={{ start: (text) => <Link href="/">{text}</Link> }} />
        </p>
      </Page>
    );
  // Keyed by path: moving between pages starts each one fresh.
  return <Current key={path} />;
}

// After the first language's catalogue is there (English is bundled; Russian and Chinese load first): no flash of English.
void ready.then(() => render(<App />, document.getElementById('app')!));
