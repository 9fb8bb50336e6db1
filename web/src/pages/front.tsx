// `/`: what the site is for, for visitors: its name, a player in 3D (a skin worn here lately, or the default skin),
// and how to play in three steps, the last with the game login's address for launchers. A logged-in player goes on
// to the profile.
// Fast first: the text is drawn by the app's first chunk; the 3D figure's code (the viewer, then three.js) is
// asked for only after that text is on the screen, and the recent skin with it (docs/performance.md, Web pages).
import type { FunctionComponent } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { api, session } from '../api.ts';
import { askSite, Page, useGameApiRoot, useSiteName } from '../components.tsx';
import { Rich, t, useT } from '../i18n.ts';
import { LauncherAddress } from '../launcher-address.tsx';
import { Link, navigate } from '../router.tsx';
import type { SkinPreview } from '../viewer.tsx';
import { CarriedNote } from './auth.tsx';
import './front.css';

/** The project's default skin (src/rendering/default-skins), bundled as a file of the build. */
const DEFAULT_SKIN = new URL('../../../src/rendering/default-skins/classic.png', import.meta.url).href;

interface RecentSkin {
  digest: string;
  slim: boolean;
}

export function FrontPage() {
  useT();
  const siteName = useSiteName();
  const gameApiRoot = useGameApiRoot();
  const loggedIn = session.token() !== null;
  useEffect(() => {
    if (loggedIn) navigate('/home', { replace: true });
  }, []);
  if (loggedIn) return null;
  return (
    <Page title={siteName} wide>
      <CarriedNote />
      <div class="front-intro">
        <div>
          <p class="front-lead">{t('front.about')}</p>
          <p class="actions">
            <Link href="/register" class="button">
              {t('front.register')}
            </Link>
            <Link href="/login" class="button secondary">
              {t('front.login')}
            </Link>
          </p>
        </div>
        <FrontFigure />
      </div>
      <section class="card" aria-labelledby="how-to-play">
        <h2 id="how-to-play">{t('front.howTitle')}</h2>
        <ol class="front-steps">
          <li>
            <h3>{t('front.accountTitle')}</h3>
            <p>{t('front.account')}</p>
          </li>
          <li>
            <h3>{t('front.skinTitle')}</h3>
            <p>
              <Rich text={t('front.skin')} parts={{ profile: (text) => <Link href="/home">{text}</Link> }} />
            </p>
          </li>
          <li>
            <h3>{t('front.launcherTitle')}</h3>
            {gameApiRoot ? <LauncherAddress apiRoot={gameApiRoot} /> : <p>{t('common.loading')}</p>}
          </li>
        </ol>
      </section>
    </Page>
  );
}

/**
 * The 3D figure, once the text is drawn: a frame of the figure's size until the viewer's code is there, so that
 * nothing moves when it comes. The skin is the newest one worn here, or the default one.
 */
function FrontFigure() {
  const [Preview, setPreview] = useState<FunctionComponent<Parameters<typeof SkinPreview>[0]> | null>(null);
  /** undefined while asking; null: nobody wears a skin, the default one is shown. */
  const [recent, setRecent] = useState<RecentSkin | null | undefined>(undefined);
  useEffect(() => {
    let current = true;
    // Once the site's name and game login are on the page, and that frame is painted: then what the figure needs.
    let frame = 0;
    void askSite().then(() => {
      frame = requestAnimationFrame(() =>
        setTimeout(() => {
          if (!current) return;
          void api.get<{ skin: RecentSkin | null }>('/api/skin/recent').then(
            (reply) => current && setRecent(reply.data.skin),
            () => current && setRecent(null),
          );
          void import('../viewer.tsx').then((module) => current && setPreview(() => module.SkinPreview));
        }),
      );
    });
    return () => {
      current = false;
      cancelAnimationFrame(frame);
    };
  }, []);
  if (!Preview || recent === undefined) return <div class="front-figure" aria-hidden="true" />;
  return (
    <div class="front-figure">
      <Preview
        label={recent ? t('front.figureRecent') : t('front.figureDefault')}
        skinUrl={recent ? `/textures/${recent.digest}` : DEFAULT_SKIN}
        slim={recent ? recent.slim : false}
        capeUrl={null}
        caption={<p>{recent ? t('front.captionRecent') : t('front.captionDefault')}</p>}
      />
    </div>
  );
}
