// The browser app: one page component per path. The server answers each of these paths with index.html.
import { render } from 'preact';
import { Page } from './components.tsx';
import { AdminPage } from './pages/admin/console.tsx';
import { LoginPage, RegisterConfirmPage, RegisterFinishPage, RegisterPage, ResetConfirmPage, ResetPage } from './pages/auth.tsx';
import { DiscordPage } from './pages/discord.tsx';
import { FrontPage } from './pages/front.tsx';
import { HomePage } from './pages/home.tsx';
import { Link, useLocation } from './router.tsx';
import './style.css';

const PAGES: Record<string, () => preact.JSX.Element | null> = {
  '/': FrontPage,
  '/login': LoginPage,
  '/register': RegisterPage,
  '/register/confirm': RegisterConfirmPage,
  '/register/finish': RegisterFinishPage,
  '/reset': ResetPage,
  '/reset/confirm': ResetConfirmPage,
  '/home': HomePage,
  '/discord': DiscordPage,
  '/admin': AdminPage,
};

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
