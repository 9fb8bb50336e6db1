// /admin: the console for levels 1 and up. Moderators read; admins edit users, skins and capes and ban hardware;
// owners also set levels, grant roles and mail everyone (contract section 3). The API checks every call; the console
// only hides what the caller's level cannot do.
import type { JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { api, session, type UserDetail } from '../../api.ts';
import { LEVELS } from '../../../../src/shared/levels.ts';
import { Notice, Page, messageOf } from '../../components.tsx';
import { adoptAccountLanguage, t as webT, useT } from '../../i18n.ts';
import { Link, sendToLogin, useLocation } from '../../router.tsx';
import { logOut } from '../home.tsx';
import { AuditSection } from './audit.tsx';
import { CapesSection } from './capes.tsx';
import { ClientsSection } from './clients.tsx';
import { BlockedServersSection } from './blocked-servers.tsx';
import { DashboardSection } from './dashboard.tsx';
import { HardwareSection, useHardwareShown } from './hardware.tsx';
import { MailSection } from './mail.tsx';
import { RegistrationSection } from './registration.tsx';
import { ReportsSection } from './reports.tsx';
import { SECTIONS, type SectionId } from './sections.ts';
import { SkinsSection } from './skins.tsx';
import { UsersSection } from './users.tsx';
import { adminWordsReady, levelName } from './words.ts';
import './admin.css';

/** Each section's view (the type wants one for every section of SECTIONS and no other); each takes what it needs. */
const VIEWS: Record<SectionId, (props: { level: number; editing: string | null }) => JSX.Element> = {
  dashboard: DashboardSection,
  users: UsersSection,
  skins: SkinsSection,
  capes: CapesSection,
  reports: ReportsSection,
  hardware: HardwareSection,
  registration: RegistrationSection,
  audit: AuditSection,
  clients: ClientsSection,
  servers: BlockedServersSection,
  mail: MailSection,
};

export function AdminPage() {
  const t = useT();
  const { query } = useLocation();
  const [level, setLevel] = useState<number | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  // The console's catalogue comes with its chunk: nothing of it shows before it is there.
  const [words, setWords] = useState(false);
  const hardwareShown = useHardwareShown(level !== null && level >= LEVELS.moderator);
  useEffect(() => {
    adminWordsReady().then(
      () => setWords(true),
      (error) => setFailure(messageOf(error)),
    );
    if (!session.token()) return sendToLogin();
    api.get<UserDetail>('/api/home').then(
      // The account's stored language (contract section 14): the console follows it, as the profile does.
      (reply) => void adoptAccountLanguage(reply.data.Language).finally(() => setLevel(reply.data.PermLvl)),
      (error) => (session.token() ? setFailure(messageOf(error)) : sendToLogin()),
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

  // Hardware only where there is some to show (GRAVIT_TOKEN, or a LaunchServer's sql core): asked before the tabs show.
  if (hardwareShown === null)
    return (
      <Page title={t('admin:title')}>
        <p>{t('admin:loading')}</p>
      </Page>
    );
  const sections = SECTIONS.filter((candidate) => level >= candidate.level && (candidate.id !== 'hardware' || hardwareShown));
  const tab = sections.find((candidate) => candidate.id === query.get('tab')) ?? sections[0]!;
  const View = VIEWS[tab.id];
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
        {sections.map((candidate) => (
          <Link key={candidate.id} href={`/admin?tab=${candidate.id}`} class={candidate.id === tab.id ? 'active' : ''}>
            {t(`admin:tabs.${candidate.id}`)}
          </Link>
        ))}
      </nav>
      <View level={level} editing={query.get('user')} />
    </Page>
  );
}
