// The user detail shape of interface.md 2.4, shared by GET /api/home and the admin user view.
import type { UserRow } from '../database/schema.ts';

export interface UserDetail {
  Username: string;
  Uuid: string;
  Mail: string;
  Mail_verify: number;
  Selected_Cape: number;
  Selected_Skin: string;
  PermLvl: number;
  Capes: { Id: string; Name: string }[];
  Skins: { uuid: string; name: string; cloak_id: string }[];
  Discord_integration: boolean;
  Discord: { userid: string; username: string; avatar: string };
  Mail_verification: number;
}

/** `level` is the effective level (perms raised by a role grant), which is what a client acts on. */
export function userDetail(user: UserRow, level: number): UserDetail {
  return {
    Username: user.username ?? '',
    Uuid: user.uuid ?? '',
    Mail: user.mail,
    Mail_verify: user.mail_verify,
    Selected_Cape: 0,
    Selected_Skin: '',
    PermLvl: level,
    Capes: [],
    Skins: [],
    Discord_integration: user.dsid !== null,
    Discord: { userid: user.dsid ?? '', username: user.discord_username ?? '', avatar: user.discord_avatar ?? '' },
    Mail_verification: user.mail_verification,
  };
}

export const userDetailSchema = {
  type: 'object',
  properties: {
    Username: { type: 'string' },
    Uuid: { type: 'string' },
    Mail: { type: 'string' },
    Mail_verify: { type: 'integer' },
    Selected_Cape: { type: 'integer' },
    Selected_Skin: { type: 'string' },
    PermLvl: { type: 'integer' },
    Capes: { type: 'array', items: { type: 'object', properties: { Id: { type: 'string' }, Name: { type: 'string' } } } },
    Skins: {
      type: 'array',
      items: { type: 'object', properties: { uuid: { type: 'string' }, name: { type: 'string' }, cloak_id: { type: 'string' } } },
    },
    Discord_integration: { type: 'boolean' },
    Discord: { type: 'object', properties: { userid: { type: 'string' }, username: { type: 'string' }, avatar: { type: 'string' } } },
    Mail_verification: { type: 'integer' },
  },
} as const;
