// The audit log in words: the actions the service records (to pick one as a filter) and each entry as a sentence.
// Keep in step with the recordAudit calls under src/: an action missing here still shows, by its dotted name.
import { LEVEL_NAMES, type AuditEntry } from '../../api.ts';

/** Every action the service records, with what it means, grouped as the select shows them. */
export const AUDIT_ACTIONS: { group: string; actions: Record<string, string> }[] = [
  {
    group: 'Accounts',
    actions: {
      'auth.register': 'registered a mail address',
      'auth.confirm_mail': 'confirmed the mail address',
      'auth.register_finish': 'finished the registration',
      'auth.login_failures': 'many failed logins',
      'auth.password_reset_request': 'asked to reset the password',
      'auth.password_reset': 'reset the password',
      'user.password_change': 'changed the password',
      'user.mail_change': 'changed the mail address',
      'user.select_textures': 'chose a skin or cape',
      'user.take_off': 'took off a skin or cape',
      'user.logout_everywhere': 'logged out everywhere',
      'user.delete': 'deleted the account',
      'user.2fa_on': 'two-factor login turned on',
      'user.2fa_off': 'two-factor login turned off',
      'user.2fa_recovery_used': 'a recovery code used',
      'discord.link': 'Discord account linked',
      'discord.unlink': 'Discord account unlinked',
    },
  },
  {
    group: 'Registration',
    actions: {
      'registration.mode': 'who may register changed',
      'invite.create': 'invitation made',
      'invite.revoke': 'invitation withdrawn',
      'invite.use': 'invitation used',
    },
  },
  {
    group: 'Administration',
    actions: {
      'user.create': 'account created by an operator',
      'user.update': 'user changed by an admin',
      'user.ban': 'user banned',
      'role.grant': 'role granted',
      'role.revoke': 'role revoked',
      'role.expire': 'role ended',
    },
  },
  {
    group: 'Skins and capes',
    actions: {
      'skin.upload': 'skin uploaded',
      'skin.update': 'skin changed by its owner',
      'skin.delete': 'skin deleted by its owner',
      'skin.admin_update': 'skin changed by an admin',
      'skin.moderate_delete': 'skin deleted by an admin',
      'cape.upload': 'cape uploaded',
      'cape.assign': 'capes given or taken',
      'cape.delete': 'cape deleted',
    },
  },
  {
    group: 'Hardware',
    actions: {
      'hardware.create': 'machine reported',
      'hardware.connect': 'machine used by a player',
      'hardware.add_public_key': 'machine key added',
      'hardware.ban': 'machine banned',
      'hardware.unban': 'machine unbanned',
    },
  },
  {
    group: 'Mail',
    actions: {
      'mail.broadcast': 'mail to everyone sent',
      'mail.broadcast_progress': 'mail to everyone in progress',
      'mail.broadcast_queued': 'mail to everyone queued',
      'mail.failed': 'mail could not be delivered',
    },
  },
];

const when = (seconds: unknown) => (typeof seconds === 'number' ? new Date(seconds * 1000).toLocaleString() : '');
const level = (value: unknown) => (typeof value === 'number' ? (LEVEL_NAMES[value] ?? `level ${value}`) : 'a role');
const quoted = (value: unknown) => `“${String(value)}”`;
const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;

/** What a user.update changed, in words (the details are the fields sent, without the password). */
function changes(details: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const [field, value] of Object.entries(details)) {
    if (field === 'username') parts.push(`the name to ${quoted(value)}`);
    else if (field === 'mail') parts.push(`the mail address to ${String(value)}`);
    else if (field === 'password') parts.push('the password');
    else if (field === 'perms') parts.push(`the level to ${level(value)}`);
    else if (field === 'mail_verify') parts.push(value ? 'the mail address to confirmed' : 'the mail address to unconfirmed');
    else if (field === 'mail_verification') parts.push(value ? 'confirming the mail to required' : 'confirming the mail to not required');
    else if (field === 'selected_skin') parts.push(value ? 'the worn skin' : 'the worn skin to none');
    else if (field === 'dsid') parts.push('the Discord link to removed');
    else if (field === 'name') parts.push(`the name to ${quoted(value)}`);
    else if (field === 'slim') parts.push(value ? 'the arms to slim' : 'the arms to classic');
    else if (field === 'hd') parts.push(value ? 'HD to on' : 'HD to off');
    else if (field === 'cloakid') parts.push(value ? 'the cape shown with it' : 'the cape shown with it to none');
  }
  return parts.length === 0 ? 'nothing' : parts.join(', ');
}

/**
 * One entry as a sentence without its actor and subject, which the table shows as links: "granted the role admin
 * until 1/2/2026, 10:00:00". Unknown actions fall back to their name.
 */
export function describe(entry: Pick<AuditEntry, 'action' | 'details'>): string {
  const details = entry.details ?? {};
  const until = details.expired_at ? ` until ${when(details.expired_at)}` : ' without end';
  switch (entry.action) {
    case 'role.grant':
      return `granted the role ${level(details.role_level)}${until}`;
    case 'role.revoke':
      return `revoked the role ${level(details.role_level)}`;
    case 'role.expire':
      return `the role ${level(details.role_level)} ended at ${when(details.expired_at)}`;
    case 'user.ban':
      return 'banned the player';
    case 'user.update':
      return details.perms === 0 && Object.keys(details).length === 1
        ? 'unbanned the player (now a player again)'
        : `changed ${changes(details)}`;
    case 'user.create':
      return `created the account ${quoted(details.username)} as ${level(details.perms)}`;
    case 'user.delete':
      return `deleted the account (and ${plural(Number(details.skins ?? 0), 'skin')})`;
    case 'user.mail_change':
      return `changed the mail address to ${String(details.mail)}`;
    case 'user.take_off':
      return `took off the ${details.texture === 'cape' ? 'cape' : 'skin'}`;
    case 'auth.login_failures':
      return `${plural(Number(details.failures ?? 0), 'failed login')} in a row${details.address ? ` from ${String(details.address)}` : ''}`;
    case 'skin.moderate_delete':
      return `deleted the skin ${quoted(details.name)}: ${details.reason ? quoted(details.reason) : 'no reason given'}`;
    case 'skin.update':
    case 'skin.admin_update':
      return `changed a skin: ${changes(Object.fromEntries(Object.entries(details).filter(([key]) => key !== 'skin')))}`;
    case 'cape.upload': {
      const owners = Array.isArray(details.owners) ? details.owners.length : 0;
      return `uploaded the cape ${quoted(details.name)} for ${plural(owners, 'player')}`;
    }
    case 'cape.delete':
      return `deleted the cape ${quoted(details.name)}`;
    case 'cape.assign': {
      const capes = Array.isArray(details.capes) ? details.capes.length : 0;
      return capes === 0 ? 'took away every cape' : `set the capes the player owns (${plural(capes, 'cape')})`;
    }
    case 'mail.broadcast':
      return `mailed everyone ${quoted(details.subject)} (${plural(Number(details.recipients ?? 0), 'recipient')})`;
    case 'mail.broadcast_progress':
    case 'mail.broadcast_queued':
      return `queued ${plural(Number(details.queued ?? 0), 'mail')} of a mail to everyone`;
    case 'user.2fa_off':
      return details.by === 'admin' || details.by === 'operator'
        ? `turned off two-factor login for the player (as ${details.by === 'admin' ? 'an admin' : 'the operator'})`
        : 'turned off two-factor login';
    case 'user.2fa_recovery_used':
      return `logged in with a recovery code (${plural(Number(details.left ?? 0), 'code')} left)`;
    case 'registration.mode':
      return `set who may register to ${String(details.mode)}${details.previous ? ` (was ${String(details.previous)})` : ''}${
        details.source === 'setting' ? ', following the setting again' : ''
      }`;
    case 'invite.create':
      return `made invitation ${String(details.invite)}${details.note ? ` (${quoted(details.note)})` : ''}${
        details.expires_at ? `, usable until ${when(details.expires_at)}` : ''
      }`;
    case 'invite.revoke':
      return `withdrew invitation ${String(details.invite)}`;
    case 'invite.use':
      return `registered with invitation ${String(details.invite)}`;
    case 'mail.failed':
      return `could not deliver a mail to ${String(details.recipient)}`;
    case 'hardware.create':
    case 'hardware.connect':
    case 'hardware.add_public_key':
    case 'hardware.ban':
    case 'hardware.unban':
      return `${actionLabel(entry.action)} (machine ${String(details.hardware)})`;
    default:
      return actionLabel(entry.action);
  }
}

/** An action's meaning, or its name when the console does not know it. */
export function actionLabel(action: string): string {
  for (const group of AUDIT_ACTIONS) if (action in group.actions) return group.actions[action]!;
  return action;
}
