// A game profile of an account (contract section 16): GET/POST /api/home/profiles and the admin's, and the
// `Profiles` of the user detail. Type, response schema and example.
import { PLAYER_UUID, SKIN_UUID } from './example-story.ts';
import { recordSchema } from './record-schema.ts';

export interface ProfileRecord {
  uuid: string;
  name: string;
  /** The profile made at registration: its name is the account's username. */
  primary: boolean;
  /** UUID of the skin it wears (one of the account's), or null. */
  selected_skin: string | null;
  /** UUID of the cape it wears (one the account owns), or null. */
  selected_cape: string | null;
  /** Unix seconds. */
  created: number;
  /** Unix seconds of the last rename; null before any. */
  name_changed: number | null;
}

export const PROFILE_RECORD_SCHEMA = recordSchema<ProfileRecord>({
  uuid: { type: 'string' },
  name: { type: 'string' },
  primary: { type: 'boolean' },
  selected_skin: { type: ['string', 'null'] },
  selected_cape: { type: ['string', 'null'] },
  created: { type: 'integer' },
  name_changed: { type: ['integer', 'null'] },
});

export const SECOND_PROFILE_UUID = '6a7b8c9d-0e1f-4a2b-8c3d-4e5f6a7b8c9d';

export const PROFILE_RECORDS_EXAMPLE: ProfileRecord[] = [
  {
    uuid: PLAYER_UUID,
    name: 'Steve',
    primary: true,
    selected_skin: SKIN_UUID,
    selected_cape: null,
    created: 1767225600,
    name_changed: null,
  },
  {
    uuid: SECOND_PROFILE_UUID,
    name: 'Alex_',
    primary: false,
    selected_skin: null,
    selected_cape: null,
    created: 1767312000,
    name_changed: 1767400000,
  },
];

/** A profile in the user detail (GET /api/home, the admin user view), in the detail's capitalised style. */
export interface DetailProfile {
  Uuid: string;
  Username: string;
  Primary: boolean;
  Selected_Skin: string;
  Selected_Cape: string;
}
