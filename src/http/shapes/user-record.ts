// The User record of interface.md 2.3 (the admin user list): type, response schema and example.
import { PLAYER_ID, PLAYER_UUID } from './example-story.ts';
import { recordSchema } from './record-schema.ts';

/** `password` is the stored argon2id hash, as contract section 2 says. */
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
}

export const USER_RECORD_SCHEMA = recordSchema<UserRecord>({
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
});

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
};
