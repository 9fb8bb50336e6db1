// The User record of interface.md 2.3 (the admin user list): type, response schema and example.
import { PLAYER_ID, PLAYER_UUID } from './example-story.ts';
import { recordSchema } from './record-schema.ts';
import { ROLE_GRANT_SCHEMA, type RoleGrantRecord } from './role-grant.ts';

/**
 * `password` is the stored argon2id hash (contract section 2), and `accessToken`, `serverID` and `hwidId` the
 * LaunchServer's columns, only for a viewer whose permanent level is owner; else `""` and null (contract section 15).
 */
export interface UserRecord {
  id: number;
  username: string;
  dsid: string;
  mail: string;
  mail_verify: number;
  uuid: string;
  password: string;
  perms: number;
  accessToken: string | null;
  serverID: string | null;
  /** The bigint users.hwid_id a LaunchServer's sql core writes, as text (interface.md gives a string). */
  hwidId: string | null;
  /** Beyond interface.md, in the admin list: the effective level (perms raised by an unexpired role grant; -1 banned). */
  level?: number;
  /** Beyond interface.md, in the admin list: the user's role grant, expired or not, or null. */
  role_grant?: RoleGrantRecord | null;
  /** Beyond interface.md, in the admin list: the linked Discord account's name and avatar URL ('' when none), or null. */
  discord?: { username: string; avatar: string } | null;
}

export const USER_RECORD_SCHEMA = recordSchema<UserRecord>(
  {
    id: { type: 'integer' },
    username: { type: 'string' },
    dsid: { type: 'string' },
    mail: { type: 'string' },
    mail_verify: { type: 'integer' },
    uuid: { type: 'string' },
    password: { type: 'string' },
    perms: { type: 'integer' },
    accessToken: { type: ['string', 'null'] },
    serverID: { type: ['string', 'null'] },
    hwidId: { type: ['string', 'null'] },
    level: { type: 'integer' },
    role_grant: { anyOf: [ROLE_GRANT_SCHEMA, { type: 'null' }] },
    discord: {
      anyOf: [
        recordSchema<NonNullable<UserRecord['discord']>>({ username: { type: 'string' }, avatar: { type: 'string' } }),
        { type: 'null' },
      ],
    },
  },
  { level: true, role_grant: true, discord: true },
);

export const USER_RECORD_EXAMPLE: UserRecord = {
  id: PLAYER_ID,
  username: 'Steve',
  dsid: '',
  mail: 'steve@example.org',
  mail_verify: 1,
  uuid: PLAYER_UUID,
  password: '$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0$aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaA',
  perms: 0,
  accessToken: null,
  serverID: null,
  hwidId: null,
  level: 0,
  role_grant: null,
  discord: null,
};
