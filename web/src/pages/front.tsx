// `/`: what the site is for, for visitors; a logged-in player goes on to the profile.
import { useEffect } from 'preact/hooks';
import { session } from '../api.ts';
import { Page, useSiteName } from '../components.tsx';
import { t, useT } from '../i18n.ts';
import { Link, navigate } from '../router.tsx';
import { CarriedNote } from './auth.tsx';

export function FrontPage() {
  useT();
  const siteName = useSiteName();
  const loggedIn = session.token() !== null;
  useEffect(() => {
    if (loggedIn) navigate('/home', { replace: true });
  }, []);
  if (loggedIn) return null;
  return (
    <Page title={siteName}>
      <CarriedNote />
      <p>{t('front.about')}</p>
      <p class="actions">
        <Link href="/register" class="button">
          {t('front.register')}
        </Link>
        <Link href="/login" class="button secondary">
          {t('front.login')}
        </Link>
      </p>
    </Page>
  );
}
