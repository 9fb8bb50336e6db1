// One user: the fields an admin may change, the owner's role grants, the user's skins and hardware.
import { useEffect, useState } from 'preact/hooks';
import { api, LEVEL_NAMES, LEVELS, textureUrls, type SkinRecord, type UserDetail, type UserRecord } from '../../api.ts';
import { Field, Form, Notice, messageOf } from '../../components.tsx';
import { HardwareList } from './hardware.tsx';

/** Sends only the fields that differ from the loaded user: a PATCH is all or nothing. */
export function UserEditor(props: { identifier: string; level: number; onSaved: () => void }) {
  const [user, setUser] = useState<UserDetail | null>(null);
  // The stored level: PermLvl in the detail is the effective one, raised by a role grant, and must not be
  // written back as if it were stored.
  const [storedPerms, setStoredPerms] = useState<number | null>(null);
  // The hardware list is filtered by user id, which the detail does not carry: it comes with the stored level.
  const [userId, setUserId] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = async () => {
    try {
      const detail = (await api.get<UserDetail>(`/api/admin/user/${props.identifier}`)).data;
      const records = (await api.get<UserRecord[]>('/api/admin/users', { search: detail.Username || detail.Mail, limit: 100 })).data;
      const record = records.find((candidate) => candidate.uuid === detail.Uuid);
      setStoredPerms(record?.perms ?? null);
      setUserId(record?.id ?? null);
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
      {userId !== null && (
        <>
          <h3>Hardware this player launched the game on</h3>
          <HardwareList level={props.level} user={userId} empty="None reported (hardware comes from a GravitLauncher LaunchServer)." />
        </>
      )}
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
