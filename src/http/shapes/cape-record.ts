// A cape as the API answers it (contract section 5): type, response schema and example.
import { BASE, CAPE_DIGEST, CAPE_UUID, PLAYER_ID } from './example-story.ts';
import { recordSchema } from './record-schema.ts';

export interface CapeRecord {
  uuid: string;
  name: string;
  /** User ids of the players who may wear it. */
  owners: number[];
  digest: string;
  url: string;
  /** Only in lists about one player: whether this is the cape they wear. */
  selected?: boolean;
  /** Only in the admin list of every cape: the owners with their usernames, in the order of `owners`. */
  owner_users?: { id: number; username: string }[];
}

export const CAPE_RECORD_SCHEMA = recordSchema<CapeRecord>(
  {
    uuid: { type: 'string' },
    name: { type: 'string' },
    owners: { type: 'array', items: { type: 'integer' } },
    digest: { type: 'string' },
    url: { type: 'string' },
    selected: { type: 'boolean' },
    owner_users: {
      type: 'array',
      items: recordSchema<{ id: number; username: string }>({ id: { type: 'integer' }, username: { type: 'string' } }),
    },
  },
  { selected: true, owner_users: true },
);

export const CAPE_EXAMPLE: CapeRecord = {
  uuid: CAPE_UUID,
  name: 'Founder',
  owners: [PLAYER_ID],
  digest: CAPE_DIGEST,
  url: `${BASE}/api/skin/standart/cape/${CAPE_UUID}`,
};
