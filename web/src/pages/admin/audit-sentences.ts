// The audit log in words: the actions the service records (to pick one as a filter) and each entry as a sentence, in
// the page's language (locales/<language>/admin.json: groups, actions, activity, sentence, change, actor). Sentences
// are whole messages with the values as placeholders; a list of changes is joined by Intl.ListFormat. The actions are
// the service's one list (src/shared/audit-actions.ts); src/audit/actions.test.ts checks each has its words.
import type { AuditEntry } from '../../api.ts';
import { AUDIT_ACTION_GROUPS, auditActionKey, type AuditActionGroup } from '../../../../src/shared/audit-actions.ts';
import { dateTime, t } from '../../i18n.ts';
import { hasAdminKey, levelName, listOf } from './words.ts';

const actionKey = (action: string) => `admin:actions.${auditActionKey(action)}`;

/** The groups and actions with their meaning in the page's language: { group, actions: { action: meaning } }. */
export function auditActions(): { group: string; actions: Record<string, string> }[] {
  return (Object.entries(AUDIT_ACTION_GROUPS) as [AuditActionGroup, readonly string[]][]).map(([group, actions]) => ({
    group: t(`admin:groups.${group}`),
    actions: Object.fromEntries(actions.map((action) => [action, t(actionKey(action))])),
  }));
}

/** An action as the dashboard's "Latest activity" tells it after the actor's name ("uploaded a skin"). */
export const activityLabel = (action: string): string => {
  const key = `admin:activity.${auditActionKey(action)}`;
  return hasAdminKey(key) ? t(key) : actionLabel(action);
};

/** Who acted: a user's name, or the service itself and the operator's command line in words. */
export function actorName(entry: Pick<AuditEntry, 'iss' | 'iss_id'>): string {
  // Never a user: those names are reserved (src/accounts/rules.ts), and a user's entry has its id unless deleted.
  if (!entry.iss_id && (entry.iss === 'system' || entry.iss === 'cli')) return t(`admin:actor.${entry.iss}`);
  return entry.iss;
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
    else if (field === 'max_profiles') parts.push(profileLimit(value));
  }
  return parts.length === 0 ? t('admin:change.nothing') : listOf(parts);
}

/** An account's own profile limit as set in the editor: a number, no limit (-1), or the server's setting (null). */
function profileLimit(value: unknown): string {
  if (value === null) return t('admin:change.maxProfilesSetting');
  if (value === -1) return t('admin:change.maxProfilesUnlimited');
  return t('admin:change.maxProfiles', { value: String(value) });
}

/** How many accounts an import took, from its counts ({accounts: {imported, already, left_out}, ...}). */
function importedAccounts(counts: unknown): { count: number; already: number; leftOut: number } {
  const accounts = (typeof counts === 'object' && counts !== null ? (counts as Record<string, unknown>).accounts : undefined) as
    Record<string, unknown> | undefined;
  return { count: count(accounts?.imported), already: count(accounts?.already), leftOut: count(accounts?.left_out) };
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
    case 'import.run':
      return importRun(details);
    case 'mail.failed':
      return t('admin:sentence.mailFailed', { recipient: String(details.recipient) });
    case 'hardware.create':
    case 'hardware.connect':
    case 'hardware.add_public_key':
    case 'hardware.ban':
    case 'hardware.unban':
      return t('admin:sentence.hardware', { action: actionLabel(entry.action), hardware: String(details.hardware) });
    case 'passkey.add':
      return t('admin:sentence.passkeyAdd', { name: String(details.name) });
    case 'passkey.remove':
      if (Array.isArray(details.ids)) {
        const key = details.by === 'operator' ? 'admin:sentence.passkeysRemoveOperator' : 'admin:sentence.passkeysRemoveAdmin';
        return t(key, { count: details.ids.length });
      }
      return t('admin:sentence.passkeyRemove', { name: String(details.name) });
    case 'passkey.counter_regressed':
      return t('admin:sentence.passkeyCounter', {
        name: String(details.name),
        stored: count(details.stored),
        received: count(details.received),
      });
    case 'oauth.grant':
      return t('admin:sentence.oauthGrant', { client: String(details.client) });
    case 'oauth.revoke':
      return t('admin:sentence.oauthRevoke', { client: String(details.client) });
    case 'oauth.client.create':
      return t('admin:sentence.oauthClientCreate', { name: String(details.name), client: String(details.client) });
    case 'oauth.client.update':
      return t('admin:sentence.oauthClientUpdate', { client: String(details.client) });
    case 'oauth.client.delete':
      return t('admin:sentence.oauthClientDelete', {
        name: String(details.name),
        client: String(details.client),
        count: count(details.grants),
      });
    case 'user.owner_from_settings':
      return t(details.password === 'replaced' ? 'admin:sentence.ownerFromSettingsReplaced' : 'admin:sentence.ownerFromSettings', {
        level: level(details.from),
      });
    case 'import.run':
      return t('admin:sentence.importRun', { source: String(details.source), ...importedAccounts(details.counts) });
    default:
      return actionLabel(entry.action);
  }
}

/** An import (`npm run cli -- import`): its accounts counted, and the first things left out with the importer's reasons. */
function importRun(details: Record<string, unknown>): string {
  const accounts = ((details.counts ?? {}) as Record<string, Record<string, unknown>>).accounts ?? {};
  const sentence = t('admin:sentence.importRun', {
    source: String(details.source),
    imported: count(accounts.imported),
    already: count(accounts.already),
    left: count(accounts.left_out),
  });
  const leftOut = Array.isArray(details.left_out) ? (details.left_out as { name?: unknown; reason?: unknown }[]) : [];
  if (leftOut.length === 0) return sentence;
  const shown = leftOut.slice(0, 5).map((entry) => `${String(entry.name)} (${String(entry.reason)})`);
  const more = leftOut.length - shown.length + count(details.left_out_more);
  const list = listOf(more > 0 ? [...shown, t('admin:sentence.importMore', { count: more })] : shown);
  return `${sentence}. ${t('admin:sentence.importLeftOut', { list })}`;
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
