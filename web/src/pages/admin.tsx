// /admin: the console for levels 1 and up. Moderators read; admins edit users, skins and capes; owners also set
// levels, grant roles and mail everyone (contract section 3). The API checks every call; the console only hides
// what the caller's level cannot do.
import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import {
  api,
  LEVEL_NAMES,
  LEVELS,
  session,
  textureUrls,
  type AuditEntry,
  type CapeRecord,
  type SkinRecord,
  type UserDetail,
  type UserRecord,
} from '../api.ts';
import { askNewName, Field, Form, Header, Notice, Page, messageOf, useAction } from '../components.tsx';
import { Link, navigate, useLocation } from '../router.tsx';
import { logOut } from './home.tsx';

const PAGE_SIZE = 20;
const TABS = [
  { id: 'users', label: 'Users', level: LEVELS.moderator },
  { id: 'skins', label: 'Skins', level: LEVELS.moderator },
  { id: 'capes', label: 'Capes', level: LEVELS.moderator },
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
    <>
      <Header>
        <Link href="/home">Profile</Link>
        <button type="button" class="link" onClick={() => void logOut()}>
          Log out
        </button>
      </Header>
      <Page title="Administration" wide>
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
        {tab.id === 'users' && <UsersSection level={level} editing={query.get('user')} />}
        {tab.id === 'skins' && <SkinsSection level={level} />}
        {tab.id === 'capes' && <CapesSection level={level} />}
        {tab.id === 'audit' && <AuditSection />}
        {tab.id === 'mail' && <MailSection />}
      </Page>
    </>
  );
}

/** A scrollable table of records, one row per record. */
function Table<T extends { id: number }>(props: { headers: string[]; rows: T[] | null; cells: (row: T) => ComponentChildren[] }) {
  return (
    <div class="table">
      <table>
        <thead>
          <tr>
            {props.headers.map((header) => (
              <th key={header}>{header}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {props.rows?.map((row) => (
            <tr key={row.id}>
              {props.cells(row).map((cell, index) => (
                <td key={index}>{cell}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Loads a paginated list (limit/offset, total from X-Total-Count) and reloads when its inputs change. */
function usePagedList<T>(path: string, filters: Record<string, string | number | undefined>) {
  const [offset, setOffset] = useState(0);
  const [rows, setRows] = useState<T[] | null>(null);
  const [total, setTotal] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const [version, setVersion] = useState(0);
  const key = JSON.stringify(filters);
  useEffect(() => setOffset(0), [key]);
  useEffect(() => {
    api.get<T[]>(path, { ...filters, limit: PAGE_SIZE, offset }).then(
      (reply) => {
        setRows(reply.data);
        setTotal(reply.total ?? reply.data.length);
        setError(null);
      },
      (failure) => setError(messageOf(failure)),
    );
  }, [path, key, offset, version]);
  const pager = (
    <div class="pager">
      <button type="button" class="secondary" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE_SIZE))}>
        Previous
      </button>
      <span>{total === 0 ? 'none' : `${offset + 1}–${Math.min(offset + PAGE_SIZE, total)} of ${total}`}</span>
      <button type="button" class="secondary" disabled={offset + PAGE_SIZE >= total} onClick={() => setOffset(offset + PAGE_SIZE)}>
        Next
      </button>
    </div>
  );
  return { rows, error, pager, reload: () => setVersion(version + 1) };
}

function UsersSection(props: { level: number; editing: string | null }) {
  const [search, setSearch] = useState('');
  const list = usePagedList<UserRecord>('/api/admin/users', { search });
  return (
    <section>
      {props.editing && <UserEditor identifier={props.editing} level={props.level} onSaved={list.reload} />}
      <div class="field">
        <label for="user-search">Search by username or mail</label>
        <input id="user-search" type="search" value={search} onInput={(event) => setSearch(event.currentTarget.value)} />
      </div>
      {list.error && <Notice kind="error">{list.error}</Notice>}
      <Table
        headers={['Id', 'Username', 'Mail', 'Perms', 'Verified']}
        rows={list.rows}
        cells={(user) => [
          user.id,
          <Link href={`/admin?tab=users&user=${user.id}`}>{user.username || '(unfinished)'}</Link>,
          user.mail,
          LEVEL_NAMES[user.perms] ?? user.perms,
          user.mail_verify ? 'yes' : 'no',
        ]}
      />
      {list.pager}
    </section>
  );
}

/** Sends only the fields that differ from the loaded user: a PATCH is all or nothing. */
function UserEditor(props: { identifier: string; level: number; onSaved: () => void }) {
  const [user, setUser] = useState<UserDetail | null>(null);
  // The stored level: PermLvl in the detail is the effective one, raised by a role grant, and must not be
  // written back as if it were stored.
  const [storedPerms, setStoredPerms] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = async () => {
    try {
      const detail = (await api.get<UserDetail>(`/api/admin/user/${props.identifier}`)).data;
      const records = (await api.get<UserRecord[]>('/api/admin/users', { search: detail.Username || detail.Mail, limit: 100 })).data;
      setStoredPerms(records.find((record) => record.uuid === detail.Uuid)?.perms ?? null);
      setUser(detail);
    } catch (failure) {
      setError(messageOf(failure));
    }
  };
  useEffect(() => void load(), [props.identifier]);
  if (error) return <Notice kind="error">{error}</Notice>;
  if (!user) return <p>Loading…</p>;
  const canEdit = props.level >= LEVELS.admin;
  const isOwner = props.level >= LEVELS.owner;
  return (
    <section class="card editor" aria-label={`User ${user.Username}`}>
      <h2>
        {user.Username || '(unfinished)'} <small class="muted">{user.Uuid}</small>
      </h2>
      <p class="muted">
        Effective level {user.PermLvl} ({LEVEL_NAMES[user.PermLvl] ?? '?'}) · {user.Skins.length} skins · capes:{' '}
        {user.Capes.map((cape) => cape.Name).join(', ') || 'none'}
      </p>
      {canEdit ? (
        <Form
          submitLabel="Save user"
          submit={async (fields) => {
            const changes: Record<string, unknown> = {};
            if (fields.username !== user.Username) changes.username = fields.username;
            if (fields.mail !== user.Mail) changes.mail = fields.mail;
            if (fields.password) changes.password = fields.password;
            if (Number(fields.mail_verify === 'on') !== user.Mail_verify) changes.mail_verify = fields.mail_verify === 'on' ? 1 : 0;
            if (Number(fields.mail_verification === 'on') !== user.Mail_verification)
              changes.mail_verification = fields.mail_verification === 'on' ? 1 : 0;
            if (isOwner && fields.perms !== undefined && Number(fields.perms) !== storedPerms) changes.perms = Number(fields.perms);
            if (Object.keys(changes).length === 0) return 'Nothing changed';
            await api.patch(`/api/admin/user/${props.identifier}`, changes);
            await load();
            props.onSaved();
            return 'Saved';
          }}
        >
          <Field label="Username" name="username" value={user.Username} />
          <Field label="Mail" name="mail" type="email" value={user.Mail} />
          <Field label="New password (leave empty to keep)" name="password" type="password" autocomplete="new-password" />
          <label class="check">
            <input type="checkbox" name="mail_verify" defaultChecked={user.Mail_verify === 1} /> Mail verified
          </label>
          <label class="check">
            <input type="checkbox" name="mail_verification" defaultChecked={user.Mail_verification === 1} /> Must verify mail before logging
            in
          </label>
          {isOwner && storedPerms !== null && (
            <div class="field">
              <label for="user-perms">Permission level (without role grants)</label>
              <select id="user-perms" name="perms" defaultValue={String(storedPerms)}>
                {Object.entries(LEVEL_NAMES).map(([value, name]) => (
                  <option key={value} value={value}>
                    {value} {name}
                  </option>
                ))}
              </select>
            </div>
          )}
        </Form>
      ) : (
        <p class="muted">Moderators can read users; admins edit them.</p>
      )}
      {isOwner && <RoleGrant identifier={props.identifier} onGranted={load} />}
      <UserSkins identifier={props.identifier} />
    </section>
  );
}

/** A temporary (or permanent) role: level 1-3 until a moment given in local time. */
function RoleGrant(props: { identifier: string; onGranted: () => Promise<void> }) {
  return (
    <Form
      submitLabel="Grant role"
      submit={async ({ role_level, expires }) => {
        const body: Record<string, unknown> = { role_level: Number(role_level) };
        if (expires) body.expired_at = Math.floor(new Date(expires).getTime() / 1000);
        await api.post(`/api/admin/user/role/${props.identifier}`, body);
        await props.onGranted();
        return expires ? `Role granted until ${new Date(expires).toLocaleString()}` : 'Role granted without expiry';
      }}
    >
      <h3>Grant a role</h3>
      <div class="field">
        <label for="role-level">Role</label>
        <select id="role-level" name="role_level">
          <option value="1">1 moderator</option>
          <option value="2">2 admin</option>
          <option value="3">3 owner</option>
        </select>
      </div>
      <Field label="Expires (empty: never)" name="expires" type="datetime-local" />
    </Form>
  );
}

function UserSkins(props: { identifier: string }) {
  const [skins, setSkins] = useState<SkinRecord[]>([]);
  useEffect(
    () =>
      void api.get<SkinRecord[]>(`/api/admin/users/skin/${props.identifier}`).then(
        (reply) => setSkins(reply.data),
        () => setSkins([]),
      ),
    [props.identifier],
  );
  if (skins.length === 0) return null;
  return (
    <div class="thumbs">
      {skins.map((skin) => (
        <img key={skin.uuid} src={textureUrls.head(skin.uuid)} alt={skin.name} title={skin.name} width={48} height={48} />
      ))}
    </div>
  );
}

function SkinsSection(props: { level: number }) {
  const list = usePagedList<SkinRecord>('/api/admin/skins', {});
  const action = useAction();
  const edit = (skin: SkinRecord, changes: Record<string, unknown>) =>
    action.run(async () => {
      await api.patch(`/api/admin/skin/${skin.uuid}`, changes);
      list.reload();
      return 'Saved';
    });
  const canEdit = props.level >= LEVELS.admin;
  return (
    <section>
      {list.error && <Notice kind="error">{list.error}</Notice>}
      {action.outcome}
      <ul class="items">
        {list.rows?.map((skin) => (
          <li key={skin.uuid}>
            <img src={textureUrls.head(skin.uuid)} alt="" width={48} height={48} />
            <div class="grow">
              <strong>{skin.name}</strong>
              <small>
                owner {skin.owner} · {skin.slim ? 'slim' : 'classic'}
                {skin.hd ? ' · HD' : ''}
              </small>
            </div>
            {canEdit && (
              <>
                <button type="button" class="secondary" onClick={() => void edit(skin, { slim: !skin.slim })}>
                  Make {skin.slim ? 'classic' : 'slim'}
                </button>
                <button type="button" class="secondary" onClick={() => askNewName(skin.name, (name) => void edit(skin, { name }))}>
                  Rename
                </button>
              </>
            )}
          </li>
        ))}
      </ul>
      {list.pager}
    </section>
  );
}

function CapesSection(props: { level: number }) {
  const list = usePagedList<CapeRecord>('/api/admin/allcapes', {});
  const action = useAction();
  const canEdit = props.level >= LEVELS.admin;
  return (
    <section>
      {canEdit && (
        <Form
          resetOnSuccess
          submitLabel="Upload cape"
          submit={async (fields, form) => {
            const upload = new FormData();
            upload.append('name', fields.cape_name ?? '');
            upload.append('owners', fields.cape_owners ?? '');
            upload.append('cape', form.get('cape_file') as File);
            await api.upload('/api/admin/user/cape/upload', upload);
            list.reload();
            return 'Cape uploaded';
          }}
        >
          <h2>Upload a cape</h2>
          <div class="fields">
            <Field label="Cape name" name="cape_name" required />
            <Field label="Owners (user ids, comma-separated)" name="cape_owners" hint="The players who may wear it" />
            <div class="field">
              <label for="cape-file">Cape PNG</label>
              <input id="cape-file" name="cape_file" type="file" accept="image/png" required />
            </div>
          </div>
        </Form>
      )}
      {list.error && <Notice kind="error">{list.error}</Notice>}
      {action.outcome}
      <ul class="items">
        {list.rows?.map((cape) => (
          <li key={cape.uuid}>
            <img src={textureUrls.cloak(cape.uuid)} alt="" width={48} height={48} />
            <div class="grow">
              <strong>{cape.name}</strong>
              <small>owners: {cape.owners.join(', ') || 'none'}</small>
            </div>
            {canEdit && (
              <button
                type="button"
                class="danger"
                onClick={() => {
                  if (confirm(`Delete the cape "${cape.name}"? Its owners lose it.`))
                    void action.run(async () => {
                      await api.delete('/api/admin/user/cape/upload', { capeid: cape.uuid });
                      list.reload();
                      return 'Cape deleted';
                    });
                }}
              >
                Delete
              </button>
            )}
          </li>
        ))}
      </ul>
      {list.pager}
    </section>
  );
}

function AuditSection() {
  const [filters, setFilters] = useState<Record<string, string>>({});
  const list = usePagedList<AuditEntry>('/api/admin/audit', {
    for: filters.for,
    iss: filters.iss,
    action: filters.action,
    since: filters.since ? Math.floor(new Date(filters.since).getTime() / 1000) : undefined,
    until: filters.until ? Math.floor(new Date(filters.until).getTime() / 1000) : undefined,
  });
  return (
    <section>
      <Form submitLabel="Filter" submit={async (fields) => setFilters(fields)}>
        <div class="fields">
          <Field label="About user id" name="for" />
          <Field label="By (issuer)" name="iss" />
          <Field label="Action" name="action" />
          <Field label="Since" name="since" type="datetime-local" />
          <Field label="Until" name="until" type="datetime-local" />
        </div>
      </Form>
      {list.error && <Notice kind="error">{list.error}</Notice>}
      <Table
        headers={['Time', 'Action', 'By', 'About', 'Details']}
        rows={list.rows}
        cells={(entry) => [
          new Date(entry.time * 1000).toLocaleString(),
          entry.action,
          entry.iss,
          entry.for || '',
          <code>{entry.details ? JSON.stringify(entry.details) : ''}</code>,
        ]}
      />
      {list.pager}
    </section>
  );
}

function MailSection() {
  return (
    <section class="card">
      <Form
        resetOnSuccess
        submitLabel="Send to everyone"
        submit={async ({ subject, message }) => {
          if (!confirm('Send this mail to every verified user?')) return;
          return (await api.post<{ msg: string }>('/api/admin/mail', { subject, message })).data?.msg ?? 'Queued';
        }}
      >
        <Field label="Subject" name="subject" required />
        <div class="field">
          <label for="mail-message">Message</label>
          <textarea id="mail-message" name="message" rows={8} required />
        </div>
      </Form>
    </section>
  );
}
