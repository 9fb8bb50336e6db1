// /admin: the console for levels 1 and up. Moderators read; admins edit users, skins and capes and ban hardware;
// owners also set levels, grant roles and mail everyone (contract section 3). The API checks every call; the console
// only hides what the caller's level cannot do.
import { useEffect, useState } from 'preact/hooks';
import { api, LEVELS, session, type UserDetail } from '../../api.ts';
import { Notice, Page, messageOf } from '../../components.tsx';
import { adoptAccountLanguage, t as webT, useT } from '../../i18n.ts';
import { Link, navigate, useLocation } from '../../router.tsx';
import { logOut } from '../home.tsx';
import { AuditSection } from './audit.tsx';
import { CapesSection } from './capes.tsx';
import { DashboardSection } from './dashboard.tsx';
import { HardwareSection } from './hardware.tsx';
import { MailSection } from './mail.tsx';
import { RegistrationSection } from './registration.tsx';
import { SkinsSection } from './skins.tsx';
import { UsersSection } from './users.tsx';
import { adminWordsReady, levelName } from './words.ts';
import './admin.css';

const TABS = [
  { id: 'dashboard', level: LEVELS.moderator },
  { id: 'users', level: LEVELS.moderator },
  { id: 'skins', level: LEVELS.moderator },
  { id: 'capes', level: LEVELS.moderator },
  { id: 'hardware', level: LEVELS.moderator },
  { id: 'registration', level: LEVELS.moderator },
  { id: 'audit', level: LEVELS.moderator },
  { id: 'mail', level: LEVELS.owner },
] as const;

export function AdminPage() {
  const t = useT();
  const { query } = useLocation();
  const [level, setLevel] = useState<number | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  // The console's catalogue comes with its chunk: nothing of it shows before it is there.
  const [words, setWords] = useState(false);
  useEffect(() => {
    adminWordsReady().then(
      () => setWords(true),
      (error) => setFailure(messageOf(error)),
    );
    if (!session.token()) return navigate('/login', { replace: true });
    api.get<UserDetail>('/api/home').then(
      // The account's stored language (contract section 14): the console follows it, as the profile does.
      (reply) => void adoptAccountLanguage(reply.data.Language).finally(() => setLevel(reply.data.PermLvl)),
      (error) => (session.token() ? setFailure(messageOf(error)) : navigate('/login', { replace: true })),
    );
  }, []);
  if (failure)
    return (
      <Page title={words ? t('admin:title') : webT('app.adminTitle')}>
        <Notice kind="error">{failure}</Notice>
      </Page>
    );
  if (level === null || !words)
    return (
      <Page title={words ? t('admin:title') : webT('app.adminTitle')}>
        <p>{webT('common.loading')}</p>
      </Page>
    );
  if (level < LEVELS.moderator)
    return (
      <Page title={t('admin:title')}>
        <Notice kind="error">{t('admin:needsModerator')}</Notice>
      </Page>
    );

  const tab = TABS.find((candidate) => candidate.id === query.get('tab') && level >= candidate.level) ?? TABS[0];
  return (
    <Page
      title={t('admin:title')}
      wide
      nav={
        <>
          <Link href="/home">{t('admin:profile')}</Link>
          <button type="button" class="link" onClick={() => void logOut()}>
            {t('admin:logOut')}
          </button>
        </>
      }
    >
      <p class="muted">{t('admin:youAre', { level: levelName(level), number: level })}</p>
      <nav class="tabs" aria-label={t('admin:sections')}>
        {TABS.filter((candidate) => level >= candidate.level).map((candidate) => (
          <Link key={candidate.id} href={`/admin?tab=${candidate.id}`} class={candidate.id === tab.id ? 'active' : ''}>
            {t(`admin:tabs.${candidate.id}`)}
          </Link>
        ))}
      </nav>
      {tab.id === 'dashboard' && <DashboardSection />}
      {tab.id === 'registration' && <RegistrationSection level={level} />}
      {tab.id === 'users' && <UsersSection level={level} editing={query.get('user')} />}
      {tab.id === 'skins' && <SkinsSection level={level} />}
      {tab.id === 'capes' && <CapesSection level={level} />}
      {tab.id === 'hardware' && <HardwareSection level={level} />}
      {tab.id === 'audit' && <AuditSection />}
      {tab.id === 'mail' && <MailSection />}
    </Page>
  );
}
