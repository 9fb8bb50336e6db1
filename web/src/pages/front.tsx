// `/`: what the site is for, for visitors; a logged-in player goes on to the profile.
import { useEffect } from 'preact/hooks';
import { session } from '../api.ts';
import { Page, useSiteName } from '../components.tsx';
import { Link, navigate } from '../router.tsx';
import { CarriedNote } from './auth.tsx';

export function FrontPage() {
  const siteName = useSiteName();
  const loggedIn = session.token() !== null;
  useEffect(() => {
    if (loggedIn) navigate('/home', { replace: true });
  }, []);
  if (loggedIn) return null;
  return (
    <Page title={siteName}>
      <CarriedNote />
      <p>
        An account for playing Minecraft with your own skin and cape on the servers of this community. Upload your skin here, then log in to
        the game with the same mail or name and password.
      </p>
      <p class="actions">
        <Link href="/register" class="button">
          Create an account
        </Link>
        <Link href="/login" class="button secondary">
          Log in
        </Link>
      </p>
    </Page>
  );
}
