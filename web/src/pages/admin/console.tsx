// /admin: the console for levels 1 and up. Moderators read; admins edit users, skins and capes and ban hardware;
// owners also set levels, grant roles and mail everyone (contract section 3). The API checks every call; the console
// only hides what the caller's level cannot do.
import { useEffect, useState } from 'preact/hooks';
import { api, LEVEL_NAMES, LEVELS, session, type UserDetail } from '../../api.ts';
import { Notice, Page, messageOf } from '../../components.tsx';
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
import './admin.css';

const TABS = [
  { id: 'dashboard', label: 'Dashboard', level: LEVELS.moderator },
  { id: 'users', label: 'Users', level: LEVELS.moderator },
  { id: 'skins', label: 'Skins', level: LEVELS.moderator },
  { id: 'capes', label: 'Capes', level: LEVELS.moderator },
  { id: 'hardware', label: 'Hardware', level: LEVELS.moderator },
  { id: 'registration', label: 'Registration', level: LEVELS.moderator },
  { id: 'audit', label: 'Audit log', level: LEVELS.moderator },
  { id: 'mail', label: 'Mail everyone', level: LEVELS.owner },
] as const;

export function AdminPage() {
  const { query } = useLocation();
  const [level, setLevel] = useState<number | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  useEffect(() => {
    if (!session.token()) return navigate('/login', { replace: true });
    api.get<UserDetail>('/api/home').then(
      (reply) => setLevel(reply.data.PermLvl),
      (error) => (session.token() ? setFailure(messageOf(error)) : navigate('/login', { replace: true })),
    );
  }, []);
  if (failure)
    return (
      <Page title="Administration">
        <Notice kind="error">{failure}</Notice>
      </Page>
    );
  if (level === null)
    return (
      <Page title="Administration">
        <p>Loading…</p>
      </Page>
    );
  if (level < LEVELS.moderator)
    return (
      <Page title="Administration">
        <Notice kind="error">This console needs permission level 1 (moderator) or above.</Notice>
      </Page>
    );

  const tab = TABS.find((candidate) => candidate.id === query.get('tab') && level >= candidate.level) ?? TABS[0];
  return (
    <Page
      title="Administration"
      wide
      nav={
        <>
          <Link href="/home">Profile</Link>
          <button type="button" class="link" onClick={() => void logOut()}>
            Log out
          </button>
        </>
      }
    >
      <p class="muted">
        You are {LEVEL_NAMES[level]} (level {level}).
      </p>
      <nav class="tabs" aria-label="Sections">
        {TABS.filter((candidate) => level >= candidate.level).map((candidate) => (
          <Link key={candidate.id} href={`/admin?tab=${candidate.id}`} class={candidate.id === tab.id ? 'active' : ''}>
            {candidate.label}
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
