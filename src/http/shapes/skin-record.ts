// A skin as the API answers it (contract sections 5 and 6): type, response schema and example.
import { BASE, CAPE_UUID, PLAYER_ID, SKIN_DIGEST, SKIN_UUID } from './example-story.ts';
import { recordSchema } from './record-schema.ts';

export interface SkinRecord {
  uuid: string;
  name: string;
  /** The owner's user id. */
  owner: number;
  slim: boolean;
  hd: boolean;
  /** UUID of the cape shown with this skin, or "". */
  cloak_id: string;
  digest: string;
  url: string;
  /** Only in lists about one player: whether this is the skin they wear. */
  selected?: boolean;
  /** Only in the admin list of every skin: the owner's username ("" before registration step 3). */
  owner_name?: string;
}

export const SKIN_RECORD_SCHEMA = recordSchema<SkinRecord>(
  {
    uuid: { type: 'string' },
    name: { type: 'string' },
    owner: { type: 'integer' },
    slim: { type: 'boolean' },
    hd: { type: 'boolean' },
    cloak_id: { type: 'string' },
    digest: { type: 'string' },
    url: { type: 'string' },
    selected: { type: 'boolean' },
    owner_name: { type: 'string' },
  },
  { selected: true, owner_name: true },
);

export const SKIN_EXAMPLE: SkinRecord = {
  uuid: SKIN_UUID,
  name: 'Summer',
  owner: PLAYER_ID,
  slim: true,
  hd: false,
  cloak_id: CAPE_UUID,
  digest: SKIN_DIGEST,
  url: `${BASE}/api/skin/cloak/${SKIN_UUID}`,
};
