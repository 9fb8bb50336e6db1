// The browser app: one page component per path. The server answers each of these paths with index.html.
import { render } from 'preact';
import { useEffect } from 'preact/hooks';
import { session } from './api.ts';
import { Page } from './components.tsx';
import { AdminPage } from './pages/admin/console.tsx';
import { LoginPage, RegisterConfirmPage, RegisterFinishPage, RegisterPage, ResetConfirmPage, ResetPage } from './pages/auth.tsx';
import { HomePage } from './pages/home.tsx';
import { Link, navigate, useLocation } from './router.tsx';
import './style.css';

const PAGES: Record<string, () => preact.JSX.Element | null> = {
  '/': Start,
  '/login': LoginPage,
  '/register': RegisterPage,
  '/register/confirm': RegisterConfirmPage,
  '/register/finish': RegisterFinishPage,
  '/reset': ResetPage,
  '/reset/confirm': ResetConfirmPage,
  '/home': HomePage,
  '/admin': AdminPage,
};

/** `/`: the profile when logged in, else the login page (which links to registration). */
function Start() {
  useEffect(() => navigate(session.token() ? '/home' : '/login', { replace: true }), []);
  return null;
}

function App() {
  const { path } = useLocation();
  const Current = PAGES[path];
  // The server answers unknown page paths with this app and a 404 status.
  if (!Current)
    return (
      <Page title="Page not found">
        <p>
          There is no page at this address. <Link href="/">Go to the start page</Link>
        </p>
      </Page>
    );
  // Keyed by path: moving between pages starts each one fresh.
  return <Current key={path} />;
}

render(<App />, document.getElementById('app')!);
