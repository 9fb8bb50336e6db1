// One user: their standing (ban and unban), the fields an admin may change, the permission level, role grants with
// revoke, their linked official accounts, their game profiles, the capes they own, their skins (with the moderation
// delete) and their hardware.
import { useEffect, useState } from 'preact/hooks';
import { api, type SkinRecord, type UserDetail } from '../../api.ts';
import { LEVELS } from '../../../../src/shared/levels.ts';
import type { RoleGrantRecord } from '../../../../src/http/shapes/role-grant.ts';
import { Field, Form, Notice, useAction } from '../../components.tsx';
import { Confirmation } from '../../editing.tsx';
import { dateTime, formatDate, useT } from '../../i18n.ts';
import { AdminDiscordLink } from '../discord-account.tsx';
import { AdminIdentities } from './identities.tsx';
import { AdminTwoFactor } from '../two-factor-settings.tsx';
import { AdminPasskeys } from '../passkeys.tsx';
import { AdminPremiumLinks } from './premium-links.tsx';
import { HardwareList, useHardwareShown } from './hardware.tsx';
import { UserProfiles } from './profiles.tsx';
import { fieldOf, plainMessage } from './names.tsx';
import { SkinList } from './skins.tsx';
import { levelName, listOf } from './words.ts';
import { UserBans } from './bans.tsx';

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
  const t = useT();
  const [user, setUser] = useState<AdminDetail | null>(null);
  const [grants, setGrants] = useState<RoleGrantRecord[]>([]);
  const [error, setError] = useState<string | null>(null);
  // An API refusal about one field, shown on that field: { field name: the message in an admin's words }.
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const hardwareShown = useHardwareShown();
  // The detail answers the id and the stored level (PermLvl is the effective one, raised by a role grant, and must
  // not be written back as if it were stored): an exact lookup, so the level control is always there.
  const load = async () => {
    try {
      // Both at once: they look the user up the same way, so either refuses an unknown one with the same message.
      const [{ data: detail }, { data: granted }] = await Promise.all([
        api.get<UserDetail>(`/api/admin/user/${encodeURIComponent(props.identifier)}`),
        api.get<RoleGrantRecord[]>(`/api/admin/user/role/${encodeURIComponent(props.identifier)}`),
      ]);
      setGrants(granted);
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
  if (!user) return <p>{t('admin:loading')}</p>;
  const canEdit = props.level >= LEVELS.admin;
  const isOwner = props.level >= LEVELS.owner;
  const name = user.Username || user.Mail;
  const banned = user.Perms === LEVELS.banned;
  return (
    <section class="editor" aria-label={t('admin:editor.label', { name: user.Username })}>
      <h2 id="user-editor-heading" tabIndex={-1}>
        {user.Username || t('admin:users.unfinished')}
      </h2>
      <p class="muted">
        <span>{user.Uuid ? t('admin:editor.uuid', { uuid: user.Uuid }) : t('admin:editor.noUuid')}</span>
        <br />
        <strong>
          {user.PermLvl !== user.Perms && !banned
            ? t('admin:editor.actsAsRaised', { level: levelName(user.PermLvl), stored: levelName(user.Perms) })
            : t('admin:editor.actsAs', { level: levelName(banned ? LEVELS.banned : user.PermLvl) })}
        </strong>
        {' · '}
        {t('admin:editor.skins', { count: user.Skins.length })}
        {' · '}
        {user.Capes.length > 0
          ? t('admin:editor.capes', { capes: listOf(user.Capes.map((cape) => cape.Name)) })
          : t('admin:editor.noCapes')}
      </p>
      {(isOwner || (canEdit && props.level > user.Perms)) && <Standing user={user} name={name} onChanged={reload} />}
      {user.Id > 0 && <UserBans userId={user.Id} name={name} mayBan={canEdit && props.level > user.Perms} onChanged={load} />}
      {canEdit ? (
        <Form
          submitLabel={t('admin:editor.save')}
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
              if ((fields.chat === 'on') !== (user.Chat ?? true)) changes.chat = fields.chat === 'on';
              if ((fields.review_exempt === 'on') !== (user.ReviewExempt ?? false)) changes.review_exempt = fields.review_exempt === 'on';
              if (isOwner && fields.perms !== undefined && Number(fields.perms) !== user.Perms) changes.perms = Number(fields.perms);
              if (Object.keys(changes).length === 0) return t('admin:editor.nothingChanged');
              await api.patch(`/api/admin/user/${user.Id}`, changes);
              await reload();
              return t('admin:editor.saved');
            } catch (failure) {
              const field = fieldOf(failure, ['username', 'mail', 'password']);
              if (!field) throw new Error(plainMessage(failure));
              setFieldErrors({ [field]: plainMessage(failure) });
              setTimeout(() => (document.getElementsByName(field)[0] as HTMLInputElement | undefined)?.focus());
            }
          }}
        >
          <h3>{t('admin:editor.account')}</h3>
          <Field label={t('admin:editor.name')} name="username" value={user.Username} error={fieldErrors.username} />
          <Field label={t('admin:editor.mail')} name="mail" type="email" value={user.Mail} error={fieldErrors.mail} />
          <Field
            label={t('admin:editor.password')}
            name="password"
            type="password"
            autocomplete="new-password"
            error={fieldErrors.password}
          />
          <label class="check">
            <input type="checkbox" name="mail_verify" defaultChecked={user.Mail_verify === 1} /> {t('admin:editor.mailConfirmed')}
          </label>
          <label class="check">
            <input type="checkbox" name="mail_verification" defaultChecked={user.Mail_verification === 1} /> {t('admin:editor.mustConfirm')}
          </label>
          <label class="check">
            <input type="checkbox" name="chat" defaultChecked={user.Chat ?? true} /> {t('admin:editor.chat')}
          </label>
          <label class="check">
            <input type="checkbox" name="review_exempt" defaultChecked={user.ReviewExempt === true} /> {t('admin:editor.reviewExempt')}
          </label>
          {isOwner && (
            <div class="field">
              <label for="user-perms">{t('admin:editor.perms')}</label>
              <select id="user-perms" name="perms" key={user.Perms}>
                {[LEVELS.banned, LEVELS.player, LEVELS.moderator, LEVELS.admin, LEVELS.owner].map((value) => (
                  <option key={value} value={value} selected={value === user.Perms}>
                    {levelName(value)}
                  </option>
                ))}
              </select>
            </div>
          )}
        </Form>
      ) : (
        <p class="muted">{t('admin:editor.readOnly')}</p>
      )}
      <AdminDiscordLink
        userId={user.Id}
        name={name}
        discord={user.Discord}
        linked={user.Discord_integration}
        canEdit={canEdit}
        onChanged={reload}
      />
      <AdminIdentities
        user={user}
        name={name}
        mayUnlink={canEdit && props.level > user.PermLvl && props.level >= LEVELS.admin}
        onChanged={reload}
      />
      <AdminPremiumLinks
        userId={user.Id}
        name={name}
        links={user.PremiumLinks ?? []}
        mayUnlink={canEdit && props.level > user.PermLvl && props.level >= LEVELS.admin}
        onChanged={reload}
      />
      <AdminTwoFactor
        userId={user.Id}
        name={name}
        on={user.TwoFactor}
        mayTurnOff={canEdit && props.level > user.PermLvl}
        onChanged={reload}
      />
      <AdminPasskeys
        userId={user.Id}
        name={name}
        count={user.Passkeys ?? 0}
        mayRemove={canEdit && props.level > user.PermLvl && props.level >= LEVELS.admin}
        onChanged={reload}
      />
      <RoleGrants user={user} grants={grants} isOwner={isOwner} onChanged={reload} />
      <UserProfiles user={user} canEdit={canEdit} onChanged={reload} />
      <UserSkins user={user} level={props.level} onChanged={reload} />
      {user.Id > 0 && hardwareShown && (
        <>
          <h3>{t('admin:editor.hardware')}</h3>
          <HardwareList level={props.level} user={user.Id} empty={t('admin:editor.noHardware')} />
        </>
      )}
    </section>
  );
}

/**
 * Ban and unban, for admins above the user's perms (the API also wants that level as the admin's own perms, not a
 * role grant, and says so when it is not). A ban ends every session at once; unbanning makes the
 * account a player again (docs/decisions.md: a level it had before is not restored by itself).
 */
function Standing(props: { user: AdminDetail; name: string; onChanged: () => Promise<void> }) {
  const t = useT();
  const [asking, setAsking] = useState(false);
  const action = useAction();
  const banned = props.user.Perms === LEVELS.banned;
  const change = () => {
    setAsking(false);
    void action.run(() =>
      inWords(async () => {
        await api.patch(`/api/admin/user/${props.user.Id}`, { perms: banned ? LEVELS.player : LEVELS.banned });
        await props.onChanged();
        return t(banned ? 'admin:editor.unbannedDone' : 'admin:editor.bannedDone', { name: props.name });
      }),
    );
  };
  return (
    <div class="standing" role="group" aria-label={t('admin:editor.banGroup')}>
      {banned ? (
        <p>
          <strong class="danger">{t('admin:editor.bannedNote')}</strong> {t('admin:editor.bannedText')}
        </p>
      ) : null}
      <button type="button" class={banned ? 'secondary' : 'danger'} disabled={action.busy} onClick={() => setAsking(true)}>
        {banned ? t('admin:editor.unban') : t('admin:editor.ban')}
      </button>
      {asking && (
        <Confirmation
          confirmLabel={t(banned ? 'admin:editor.unbanNamed' : 'admin:editor.banNamed', { name: props.name })}
          danger={!banned}
          onConfirm={change}
          onCancel={() => setAsking(false)}
        >
          {t(banned ? 'admin:editor.unbanQuestion' : 'admin:editor.banQuestion', { name: props.name })}
        </Confirmation>
      )}
      {action.outcome}
    </div>
  );
}

/** The user's role grant (at most one) with revoke, and the form to grant one, for owners. */
function RoleGrants(props: { user: AdminDetail; grants: RoleGrantRecord[]; isOwner: boolean; onChanged: () => Promise<void> }) {
  const t = useT();
  const [asking, setAsking] = useState<RoleGrantRecord | null>(null);
  const action = useAction();
  const revoke = (grant: RoleGrantRecord) => {
    setAsking(null);
    void action.run(() =>
      inWords(async () => {
        await api.delete(`/api/admin/user/role/${props.user.Id}`);
        await props.onChanged();
        return t('admin:editor.revoked', { role: levelName(grant.role_level) });
      }),
    );
  };
  return (
    <div class="roles" role="group" aria-labelledby="roles-heading">
      <h3 id="roles-heading">{t('admin:editor.roles')}</h3>
      {props.grants.length === 0 ? (
        <p class="muted">{t('admin:editor.noRole')}</p>
      ) : (
        <ul class="items grants">
          {props.grants.map((grant) => (
            <li key={grant.granted_at}>
              <div class="grow">
                <strong>{levelName(grant.role_level)}</strong>{' '}
                {grant.expired_at === null ? (
                  <span>{t('admin:editor.withoutEnd')}</span>
                ) : (
                  <span class="temporary">
                    {t(grant.active ? 'admin:editor.temporaryUntil' : 'admin:editor.ended', { date: dateTime(grant.expired_at) })}
                  </span>
                )}
                <small>
                  {grant.granted_by
                    ? t('admin:editor.grantedBy', { date: dateTime(grant.granted_at), name: grant.granted_by })
                    : t('admin:editor.granted', { date: dateTime(grant.granted_at) })}
                </small>
              </div>
              {props.isOwner && (
                <button type="button" class="secondary small" disabled={action.busy} onClick={() => setAsking(grant)}>
                  {t('admin:editor.revoke')}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {asking && (
        <Confirmation
          confirmLabel={t('admin:editor.revokeRole', { role: levelName(asking.role_level) })}
          danger
          onConfirm={() => revoke(asking)}
          onCancel={() => setAsking(null)}
        >
          {t('admin:editor.revokeQuestion', {
            role: levelName(asking.role_level),
            name: props.user.Username,
            level: levelName(props.user.Perms),
          })}
        </Confirmation>
      )}
      {action.outcome}
      {props.isOwner && <RoleGrant user={props.user} onGranted={props.onChanged} replaces={props.grants.length > 0} />}
    </div>
  );
}

/** A temporary (or permanent) role: level 1-3 until a moment given in local time. */
function RoleGrant(props: { user: AdminDetail; onGranted: () => Promise<void>; replaces: boolean }) {
  const t = useT();
  const [expiryError, setExpiryError] = useState<string | null>(null);
  return (
    <Form
      submitLabel={t('admin:editor.grant')}
      submit={({ role_level, expires }) =>
        inWords(async () => {
          setExpiryError(null);
          if (expires && new Date(expires).getTime() <= Date.now()) {
            setExpiryError(t('admin:editor.futureEnd'));
            setTimeout(() => (document.getElementsByName('expires')[0] as HTMLInputElement | undefined)?.focus());
            return;
          }
          const body: Record<string, unknown> = { role_level: Number(role_level) };
          if (expires) body.expired_at = Math.floor(new Date(expires).getTime() / 1000);
          await api.post(`/api/admin/user/role/${props.user.Id}`, body);
          await props.onGranted();
          const role = levelName(Number(role_level));
          return expires
            ? t('admin:editor.grantedUntil', { role, date: formatDate(expires, { dateStyle: 'medium', timeStyle: 'short' }) })
            : t('admin:editor.grantedForever', { role });
        })
      }
    >
      <h4>{t(props.replaces ? 'admin:editor.grantReplaces' : 'admin:editor.grantHeading')}</h4>
      <div class="fields">
        <div class="field">
          <label for="role-level">{t('admin:editor.role')}</label>
          <select id="role-level" name="role_level">
            <option value="1">{levelName(LEVELS.moderator)}</option>
            <option value="2">{levelName(LEVELS.admin)}</option>
            <option value="3">{levelName(LEVELS.owner)}</option>
          </select>
        </div>
        <Field label={t('admin:editor.expires')} name="expires" type="datetime-local" error={expiryError} />
      </div>
    </Form>
  );
}

function UserSkins(props: { user: AdminDetail; level: number; onChanged: () => Promise<void> }) {
  const t = useT();
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
      <h3 id="user-skins-heading">{t('admin:editor.skins')}</h3>
      {skins?.length === 0 && <p class="muted">{t('admin:editor.noSkins')}</p>}
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
