// The audit log in words: the actions the service records (to pick one as a filter) and each entry as a sentence, in
// the page's language (locales/<language>/admin.json: groups, actions, sentence, change). Sentences are whole messages
// with the values as placeholders; a list of changes is joined by Intl.ListFormat.
// Keep in step with the recordAudit calls under src/: an action missing here still shows, by its dotted name.
import type { AuditEntry } from '../../api.ts';
import { dateTime, t } from '../../i18n.ts';
import { hasAdminKey, levelName, listOf } from './words.ts';

/** Every action the service records, grouped as the select shows them (the catalogue's groups.* and actions.*). */
const ACTION_GROUPS: { group: string; actions: string[] }[] = [
  {
    group: 'accounts',
    actions: [
      'auth.register',
      'auth.confirm_mail',
      'auth.register_finish',
      'auth.login_failures',
      'auth.password_reset_request',
      'auth.password_reset',
      'user.password_change',
      'user.password_rehash',
      'user.mail_change',
      'user.select_textures',
      'user.take_off',
      'user.logout_everywhere',
      'user.delete',
      'user.2fa_on',
      'user.2fa_off',
      'user.2fa_recovery_used',
      'app_password.create',
      'app_password.revoke',
      'discord.link',
      'discord.unlink',
    ],
  },
  { group: 'profiles', actions: ['profile.create', 'profile.rename', 'profile.delete', 'profile.transfer'] },
  { group: 'registration', actions: ['registration.mode', 'invite.create', 'invite.revoke', 'invite.use'] },
  { group: 'administration', actions: ['user.create', 'user.update', 'user.ban', 'role.grant', 'role.revoke', 'role.expire'] },
  {
    group: 'textures',
    actions: [
      'skin.upload',
      'skin.update',
      'skin.delete',
      'skin.admin_update',
      'skin.moderate_delete',
      'cape.upload',
      'cape.assign',
      'cape.delete',
    ],
  },
  { group: 'hardware', actions: ['hardware.create', 'hardware.connect', 'hardware.add_public_key', 'hardware.ban', 'hardware.unban'] },
  { group: 'mail', actions: ['mail.broadcast', 'mail.broadcast_progress', 'mail.broadcast_queued', 'mail.failed'] },
];

const actionKey = (action: string) => `admin:actions.${action.replaceAll('.', '_')}`;

/** The groups and actions with their meaning in the page's language: { group, actions: { action: meaning } }. */
export function auditActions(): { group: string; actions: Record<string, string> }[] {
  return ACTION_GROUPS.map(({ group, actions }) => ({
    group: t(`admin:groups.${group}`),
    actions: Object.fromEntries(actions.map((action) => [action, t(actionKey(action))])),
  }));
}

const when = (seconds: unknown) => (typeof seconds === 'number' ? dateTime(seconds) : '');
const level = (value: unknown) => (typeof value === 'number' ? levelName(value) : t('admin:level.aRole'));
const count = (value: unknown) => Number(value ?? 0);

/** What a user.update or skin change changed, in words (the details are the fields sent, without the password). */
function changes(details: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const [field, value] of Object.entries(details)) {
    if (field === 'username') parts.push(t('admin:change.username', { value: String(value) }));
    else if (field === 'mail') parts.push(t('admin:change.mail', { value: String(value) }));
    else if (field === 'password') parts.push(t('admin:change.password'));
    else if (field === 'perms') parts.push(t('admin:change.perms', { level: level(value) }));
    else if (field === 'mail_verify') parts.push(t(value ? 'admin:change.mailConfirmed' : 'admin:change.mailUnconfirmed'));
    else if (field === 'mail_verification') parts.push(t(value ? 'admin:change.confirmRequired' : 'admin:change.confirmNotRequired'));
    else if (field === 'selected_skin') parts.push(t(value ? 'admin:change.wornSkin' : 'admin:change.wornSkinNone'));
    else if (field === 'dsid') parts.push(t('admin:change.discordRemoved'));
    else if (field === 'name') parts.push(t('admin:change.name', { value: String(value) }));
    else if (field === 'slim') parts.push(t(value ? 'admin:change.slim' : 'admin:change.classic'));
    else if (field === 'hd') parts.push(t(value ? 'admin:change.hdOn' : 'admin:change.hdOff'));
    else if (field === 'cloakid') parts.push(t(value ? 'admin:change.cape' : 'admin:change.capeNone'));
  }
  return parts.length === 0 ? t('admin:change.nothing') : listOf(parts);
}

/**
 * One entry as a sentence without its actor and subject, which the table shows as links: "granted the role admin
 * until 1 Feb 2026, 10:00". Unknown actions fall back to their name.
 */
export function describe(entry: Pick<AuditEntry, 'action' | 'details'>): string {
  const details = entry.details ?? {};
  const role = level(details.role_level);
  switch (entry.action) {
    case 'role.grant':
      return details.expired_at
        ? t('admin:sentence.grantUntil', { role, date: when(details.expired_at) })
        : t('admin:sentence.grantForever', { role });
    case 'role.revoke':
      return t('admin:sentence.revoke', { role });
    case 'role.expire':
      return t('admin:sentence.expire', { role, date: when(details.expired_at) });
    case 'user.ban':
      return t('admin:sentence.ban');
    case 'user.update':
      return details.perms === 0 && Object.keys(details).length === 1
        ? t('admin:sentence.unban')
        : t('admin:sentence.update', { changes: changes(details) });
    case 'user.create':
      return t('admin:sentence.create', { name: String(details.username), level: level(details.perms) });
    case 'user.delete':
      return t('admin:sentence.delete', { count: count(details.skins) });
    case 'user.password_rehash':
      return t('admin:sentence.passwordRehash', { from: String(details.from) });
    case 'user.mail_change':
      return t('admin:sentence.mailChange', { mail: String(details.mail) });
    case 'user.take_off':
      return t(details.texture === 'cape' ? 'admin:sentence.takeOffCape' : 'admin:sentence.takeOffSkin');
    case 'profile.create':
    case 'profile.delete':
      return t(entry.action === 'profile.create' ? 'admin:sentence.profileCreate' : 'admin:sentence.profileDelete', {
        name: String(details.name),
      });
    case 'profile.rename':
      return t('admin:sentence.profileRename', { from: String(details.from), to: String(details.to) });
    case 'profile.transfer':
      return t('admin:sentence.profileTransfer', { uuid: String(details.uuid), to: String(details.to) });
    case 'auth.login_failures':
      return details.address
        ? t('admin:sentence.loginFailuresFrom', { count: count(details.failures), address: String(details.address) })
        : t('admin:sentence.loginFailures', { count: count(details.failures) });
    case 'skin.moderate_delete':
      return details.reason
        ? t('admin:sentence.moderateDelete', { name: String(details.name), reason: String(details.reason) })
        : t('admin:sentence.moderateDeleteNoReason', { name: String(details.name) });
    case 'skin.update':
    case 'skin.admin_update':
      return t('admin:sentence.skinChange', {
        changes: changes(Object.fromEntries(Object.entries(details).filter(([key]) => key !== 'skin'))),
      });
    case 'cape.upload':
      return t('admin:sentence.capeUpload', {
        name: String(details.name),
        count: Array.isArray(details.owners) ? details.owners.length : 0,
      });
    case 'cape.delete':
      return t('admin:sentence.capeDelete', { name: String(details.name) });
    case 'cape.assign': {
      const capes = Array.isArray(details.capes) ? details.capes.length : 0;
      return capes === 0 ? t('admin:sentence.capesTaken') : t('admin:sentence.capesSet', { count: capes });
    }
    case 'mail.broadcast':
      return t('admin:sentence.broadcast', { subject: String(details.subject), count: count(details.recipients) });
    case 'mail.broadcast_progress':
    case 'mail.broadcast_queued':
      return t('admin:sentence.queued', { count: count(details.queued) });
    case 'user.2fa_off':
      return t(
        details.by === 'admin'
          ? 'admin:sentence.twoFactorOffAdmin'
          : details.by === 'operator'
            ? 'admin:sentence.twoFactorOffOperator'
            : 'admin:sentence.twoFactorOff',
      );
    case 'app_password.create':
    case 'app_password.revoke':
      return t(entry.action === 'app_password.create' ? 'admin:sentence.appPasswordCreate' : 'admin:sentence.appPasswordRevoke', {
        name: String(details.name),
      });
    case 'user.2fa_recovery_used':
      return t('admin:sentence.recovery', { count: count(details.left) });
    case 'registration.mode': {
      const mode = modeName(details.mode);
      const previous = details.previous ? modeName(details.previous) : undefined;
      const again = details.source === 'setting';
      const key = previous ? (again ? 'modeWasSetting' : 'modeWas') : again ? 'modeSetting' : 'mode';
      return t(`admin:sentence.${key}`, { mode, previous });
    }
    case 'invite.create': {
      const key = `inviteCreate${details.note ? 'Note' : ''}${details.expires_at ? 'Until' : ''}`;
      return t(`admin:sentence.${key}`, {
        invite: String(details.invite),
        note: details.note ? String(details.note) : undefined,
        date: when(details.expires_at),
      });
    }
    case 'invite.revoke':
      return t('admin:sentence.inviteRevoke', { invite: String(details.invite) });
    case 'invite.use':
      return t('admin:sentence.inviteUse', { invite: String(details.invite) });
    case 'mail.failed':
      return t('admin:sentence.mailFailed', { recipient: String(details.recipient) });
    case 'hardware.create':
    case 'hardware.connect':
    case 'hardware.add_public_key':
    case 'hardware.ban':
    case 'hardware.unban':
      return t('admin:sentence.hardware', { action: actionLabel(entry.action), hardware: String(details.hardware) });
    default:
      return actionLabel(entry.action);
  }
}

/** A registration mode as the console names it ("open", "by invitation"), or as recorded when unknown. */
function modeName(value: unknown): string {
  const key = `admin:registration.${String(value)}`;
  return value === 'open' || value === 'invite' || value === 'closed' ? t(key).toLowerCase() : String(value);
}

/** An action's meaning, or its name when the console does not know it. */
export function actionLabel(action: string): string {
  return hasAdminKey(actionKey(action)) ? t(actionKey(action)) : action;
}
