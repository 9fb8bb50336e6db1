// One user: their standing (ban and unban), the fields an admin may change, the permission level, role grants with
// revoke, the capes they own, their skins (with the moderation delete) and their hardware.
import { useEffect, useState } from 'preact/hooks';
import { api, LEVEL_NAMES, LEVELS, type SkinRecord, type UserDetail } from '../../api.ts';
import type { RoleGrantRecord } from '../../../../src/http/shapes/role-grant.ts';
import { Confirmation, Field, Form, Notice, useAction } from '../../components.tsx';
import { AdminDiscordLink } from '../discord.tsx';
import { AdminTwoFactor } from '../two-factor.tsx';
import { HardwareList } from './hardware.tsx';
import { fieldOf, plainMessage } from './names.tsx';
import { SkinList } from './skins.tsx';

type AdminDetail = UserDetail & { Id: number; Perms: number };

/** Turns an API refusal into the console's words, for a Form's outcome. */
const inWords = async <T,>(work: () => Promise<T>): Promise<T> => {
  try {
    return await work();
  } catch (error) {
    throw new Error(plainMessage(error));
  }
};

/** Sends only the fields that differ from the loaded user: a PATCH is all or nothing. */
export function UserEditor(props: { identifier: string; level: number; onSaved: () => void }) {
  const [user, setUser] = useState<AdminDetail | null>(null);
  const [grants, setGrants] = useState<RoleGrantRecord[]>([]);
  const [error, setError] = useState<string | null>(null);
  // An API refusal about one field, shown on that field: { field name: the message in an admin's words }.
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  // The detail answers the id and the stored level (PermLvl is the effective one, raised by a role grant, and must
  // not be written back as if it were stored): an exact lookup, so the level control is always there.
  const load = async () => {
    try {
      const detail = (await api.get<UserDetail>(`/api/admin/user/${encodeURIComponent(props.identifier)}`)).data;
      setGrants((await api.get<RoleGrantRecord[]>(`/api/admin/user/role/${encodeURIComponent(props.identifier)}`)).data);
      setUser({ ...detail, Id: detail.Id ?? 0, Perms: detail.Perms ?? detail.PermLvl });
    } catch (failure) {
      setError(plainMessage(failure));
    }
  };
  const reload = async () => {
    await load();
    props.onSaved();
  };
  useEffect(() => void load(), [props.identifier]);
  if (error) return <Notice kind="error">{error}</Notice>;
  if (!user) return <p>Loading…</p>;
  const canEdit = props.level >= LEVELS.admin;
  const isOwner = props.level >= LEVELS.owner;
  const name = user.Username || user.Mail;
  const banned = user.Perms === LEVELS.banned;
  return (
    <section class="editor" aria-label={`User ${user.Username}`}>
      <h2 id="user-editor-heading" tabIndex={-1}>
        {user.Username || '(registration unfinished)'}
      </h2>
      <p class="muted">
        <span>Player UUID {user.Uuid || 'none yet'}</span>
        <br />
        Acts as <strong>{banned ? 'banned' : (LEVEL_NAMES[user.PermLvl] ?? user.PermLvl)}</strong>
        {user.PermLvl !== user.Perms && !banned ? ` (stored level ${LEVEL_NAMES[user.Perms]}, raised by a role)` : ''} ·{' '}
        {user.Skins.length === 1 ? '1 skin' : `${user.Skins.length} skins`} · capes:{' '}
        {user.Capes.map((cape) => cape.Name).join(', ') || 'none'}
      </p>
      {isOwner && <Standing user={user} name={name} onChanged={reload} />}
      {canEdit ? (
        <Form
          submitLabel="Save user"
          submit={async (fields) => {
            setFieldErrors({});
            try {
              const changes: Record<string, unknown> = {};
              if (fields.username !== user.Username) changes.username = fields.username;
              if (fields.mail !== user.Mail) changes.mail = fields.mail;
              if (fields.password) changes.password = fields.password;
              if (Number(fields.mail_verify === 'on') !== user.Mail_verify) changes.mail_verify = fields.mail_verify === 'on';
              if (Number(fields.mail_verification === 'on') !== user.Mail_verification)
                changes.mail_verification = fields.mail_verification === 'on';
              if (isOwner && fields.perms !== undefined && Number(fields.perms) !== user.Perms) changes.perms = Number(fields.perms);
              if (Object.keys(changes).length === 0) return 'Nothing changed.';
              await api.patch(`/api/admin/user/${user.Id}`, changes);
              await reload();
              return 'Saved.';
            } catch (failure) {
              const field = fieldOf(failure, ['username', 'mail', 'password']);
              if (!field) throw new Error(plainMessage(failure));
              setFieldErrors({ [field]: plainMessage(failure) });
              setTimeout(() => (document.getElementsByName(field)[0] as HTMLInputElement | undefined)?.focus());
            }
          }}
        >
          <h3>Account</h3>
          <Field label="Name" name="username" value={user.Username} error={fieldErrors.username} />
          <Field label="Mail address" name="mail" type="email" value={user.Mail} error={fieldErrors.mail} />
          <Field
            label="New password (leave empty to keep)"
            name="password"
            type="password"
            autocomplete="new-password"
            error={fieldErrors.password}
          />
          <label class="check">
            <input type="checkbox" name="mail_verify" defaultChecked={user.Mail_verify === 1} /> Mail address confirmed
          </label>
          <label class="check">
            <input type="checkbox" name="mail_verification" defaultChecked={user.Mail_verification === 1} /> Must confirm the mail address
            before logging in
          </label>
          {isOwner && (
            <div class="field">
              <label for="user-perms">Permission level (without role grants)</label>
              <select id="user-perms" name="perms" key={user.Perms}>
                {[LEVELS.banned, LEVELS.player, LEVELS.moderator, LEVELS.admin, LEVELS.owner].map((value) => (
                  <option key={value} value={value} selected={value === user.Perms}>
                    {LEVEL_NAMES[value]}
                  </option>
                ))}
              </select>
            </div>
          )}
        </Form>
      ) : (
        <p class="muted">Moderators can read users; admins edit them.</p>
      )}
      <AdminDiscordLink
        userId={user.Id}
        name={name}
        discord={user.Discord}
        linked={user.Discord_integration}
        canEdit={canEdit}
        onChanged={reload}
      />
      <AdminTwoFactor
        userId={user.Id}
        name={name}
        on={user.TwoFactor}
        mayTurnOff={canEdit && props.level > user.PermLvl}
        onChanged={reload}
      />
      <RoleGrants user={user} grants={grants} isOwner={isOwner} onChanged={reload} />
      <UserSkins user={user} level={props.level} onChanged={reload} />
      {user.Id > 0 && (
        <>
          <h3>Hardware this player launched the game on</h3>
          <HardwareList level={props.level} user={user.Id} empty="None reported (hardware comes from a GravitLauncher LaunchServer)." />
        </>
      )}
    </section>
  );
}

/**
 * Ban and unban, for owners (perms is theirs to change). A ban ends every session at once; unbanning makes the
 * account a player again (docs/decisions.md: a level it had before is not restored by itself).
 */
function Standing(props: { user: AdminDetail; name: string; onChanged: () => Promise<void> }) {
  const [asking, setAsking] = useState(false);
  const action = useAction();
  const banned = props.user.Perms === LEVELS.banned;
  const change = () => {
    setAsking(false);
    void action.run(() =>
      inWords(async () => {
        await api.patch(`/api/admin/user/${props.user.Id}`, { perms: banned ? LEVELS.player : LEVELS.banned });
        await props.onChanged();
        return banned ? `${props.name} is no longer banned and is a player again.` : `${props.name} is banned and logged out everywhere.`;
      }),
    );
  };
  return (
    <div class="standing" role="group" aria-label="Ban">
      {banned ? (
        <p>
          <strong class="danger">Banned.</strong> This player cannot log in; their skins are still shown.
        </p>
      ) : null}
      <button type="button" class={banned ? 'secondary' : 'danger'} disabled={action.busy} onClick={() => setAsking(true)}>
        {banned ? 'Unban' : 'Ban'}
      </button>
      {asking && (
        <Confirmation
          confirmLabel={banned ? `Unban ${props.name}` : `Ban ${props.name}`}
          danger={!banned}
          onConfirm={change}
          onCancel={() => setAsking(false)}
        >
          {banned
            ? `Unban ${props.name}? They can log in again, as a player: give a higher level again yourself if they had one.`
            : `Ban ${props.name}? They are logged out everywhere at once and cannot log in, also not in the game.`}
        </Confirmation>
      )}
      {action.outcome}
    </div>
  );
}

/** The user's role grant (at most one) with revoke, and the form to grant one, for owners. */
function RoleGrants(props: { user: AdminDetail; grants: RoleGrantRecord[]; isOwner: boolean; onChanged: () => Promise<void> }) {
  const [asking, setAsking] = useState<RoleGrantRecord | null>(null);
  const action = useAction();
  const revoke = (grant: RoleGrantRecord) => {
    setAsking(null);
    void action.run(() =>
      inWords(async () => {
        await api.delete(`/api/admin/user/role/${props.user.Id}`);
        await props.onChanged();
        return `The role ${LEVEL_NAMES[grant.role_level]} is revoked.`;
      }),
    );
  };
  return (
    <div class="roles" role="group" aria-labelledby="roles-heading">
      <h3 id="roles-heading">Roles</h3>
      {props.grants.length === 0 ? (
        <p class="muted">No role: the permission level alone counts.</p>
      ) : (
        <ul class="items grants">
          {props.grants.map((grant) => (
            <li key={grant.granted_at}>
              <div class="grow">
                <strong>{LEVEL_NAMES[grant.role_level]}</strong>{' '}
                {grant.expired_at === null ? (
                  <span>without end</span>
                ) : (
                  <span class="temporary">
                    {grant.active ? 'temporary, until' : 'ended'} {new Date(grant.expired_at * 1000).toLocaleString()}
                  </span>
                )}
                <small>
                  granted {new Date(grant.granted_at * 1000).toLocaleString()}
                  {grant.granted_by ? ` by ${grant.granted_by}` : ''}
                </small>
              </div>
              {props.isOwner && (
                <button type="button" class="secondary small" disabled={action.busy} onClick={() => setAsking(grant)}>
                  Revoke
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {asking && (
        <Confirmation
          confirmLabel={`Revoke the role ${LEVEL_NAMES[asking.role_level]}`}
          danger
          onConfirm={() => revoke(asking)}
          onCancel={() => setAsking(null)}
        >
          Revoke the role {LEVEL_NAMES[asking.role_level]} of {props.user.Username}? Their level falls back to{' '}
          {LEVEL_NAMES[props.user.Perms]} at once.
        </Confirmation>
      )}
      {action.outcome}
      {props.isOwner && <RoleGrant user={props.user} onGranted={props.onChanged} replaces={props.grants.length > 0} />}
    </div>
  );
}

/** A temporary (or permanent) role: level 1-3 until a moment given in local time. */
function RoleGrant(props: { user: AdminDetail; onGranted: () => Promise<void>; replaces: boolean }) {
  const [expiryError, setExpiryError] = useState<string | null>(null);
  return (
    <Form
      submitLabel="Grant role"
      submit={({ role_level, expires }) =>
        inWords(async () => {
          setExpiryError(null);
          if (expires && new Date(expires).getTime() <= Date.now()) {
            setExpiryError('Choose an end in the future, or leave it empty for a role without end.');
            setTimeout(() => (document.getElementsByName('expires')[0] as HTMLInputElement | undefined)?.focus());
            return;
          }
          const body: Record<string, unknown> = { role_level: Number(role_level) };
          if (expires) body.expired_at = Math.floor(new Date(expires).getTime() / 1000);
          await api.post(`/api/admin/user/role/${props.user.Id}`, body);
          await props.onGranted();
          const role = LEVEL_NAMES[Number(role_level)];
          return expires ? `Role ${role} granted until ${new Date(expires).toLocaleString()}.` : `Role ${role} granted without end.`;
        })
      }
    >
      <h4>Grant a role{props.replaces ? ' (replaces the one above)' : ''}</h4>
      <div class="fields">
        <div class="field">
          <label for="role-level">Role</label>
          <select id="role-level" name="role_level">
            <option value="1">moderator</option>
            <option value="2">admin</option>
            <option value="3">owner</option>
          </select>
        </div>
        <Field label="Expires (empty: never)" name="expires" type="datetime-local" error={expiryError} />
      </div>
    </Form>
  );
}

function UserSkins(props: { user: AdminDetail; level: number; onChanged: () => Promise<void> }) {
  const [skins, setSkins] = useState<SkinRecord[] | null>(null);
  const [version, setVersion] = useState(0);
  useEffect(
    () =>
      void api.get<SkinRecord[]>(`/api/admin/users/skin/${props.user.Id}`).then(
        (reply) => setSkins(reply.data),
        () => setSkins([]),
      ),
    [props.user.Id, version],
  );
  return (
    <div role="group" aria-labelledby="user-skins-heading">
      <h3 id="user-skins-heading">Skins</h3>
      {skins?.length === 0 && <p class="muted">No skins.</p>}
      <SkinList
        level={props.level}
        skins={skins ?? []}
        onChanged={() => {
          setVersion((current) => current + 1);
          void props.onChanged();
        }}
      />
    </div>
  );
}
