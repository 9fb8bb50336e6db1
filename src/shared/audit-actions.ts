// Every action the audit log records, written once: recordAudit takes only these (a new action is a type error until it
// is listed here), the console's "What happened" filter lists them by group, and each has its words in every language
// (locales/<language>/admin.json: actions.* and activity.*, checked by src/audit/actions.test.ts). Adding an action is
// one line here, plus its words. Shared by the service and the pages (web/ bundles this file): it imports nothing.

/** The actions by the group the console's filter shows them in (admin.json: groups.*), in the order it shows them. */
export const AUDIT_ACTION_GROUPS = {
  accounts: [
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
    'discord.link',
    'discord.unlink',
    'oidc.link',
    'oidc.unlink',
    'premium.link',
    'premium.unlink',
    'auth.login',
  ],
  security: [
    'user.2fa_on',
    'user.2fa_off',
    'user.2fa_recovery_used',
    'passkey.add',
    'passkey.remove',
    'passkey.counter_regressed',
    'app_password.create',
    'app_password.revoke',
  ],
  profiles: ['profile.create', 'profile.rename', 'profile.delete', 'profile.transfer'],
  launcherApps: ['oauth.grant', 'oauth.revoke', 'oauth.client.create', 'oauth.client.update', 'oauth.client.delete'],
  registration: ['registration.mode', 'invite.create', 'invite.revoke', 'invite.use'],
  administration: [
    'user.create',
    'user.update',
    'user.ban',
    'user.owner_from_settings',
    'role.grant',
    'role.revoke',
    'role.expire',
    'import.run',
  ],
  textures: [
    'skin.upload',
    'skin.update',
    'skin.delete',
    'skin.admin_update',
    'skin.moderate_delete',
    'cape.upload',
    'cape.assign',
    'cape.delete',
  ],
  hardware: ['hardware.create', 'hardware.connect', 'hardware.add_public_key', 'hardware.ban', 'hardware.unban'],
  mail: ['mail.broadcast', 'mail.broadcast_progress', 'mail.broadcast_queued', 'mail.failed'],
  library: [
    'library.publish',
    'library.unpublish',
    'texture.block',
    'texture.unblock',
    'report.create',
    'report.resolve',
    'library.approve',
    'library.refuse',
  ],
  standing: ['ban.create', 'ban.lift', 'blocked_server.add', 'blocked_server.remove', 'user.chat'],
  gameReports: ['game_report.close', 'profile.force_rename', 'profile.block_skin', 'profile.forced_action_lift'],
} as const;

export type AuditActionGroup = keyof typeof AUDIT_ACTION_GROUPS;
export type AuditAction = (typeof AUDIT_ACTION_GROUPS)[AuditActionGroup][number];

/** Every action, in the order of the groups. */
export const AUDIT_ACTIONS: readonly AuditAction[] = Object.values(AUDIT_ACTION_GROUPS).flat();

/** An action's key in the catalogues (admin.json: actions.<key>, activity.<key>): its dots become underscores. */
export const auditActionKey = (action: string): string => action.replaceAll('.', '_');
