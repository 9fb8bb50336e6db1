// Registration control (issue 14, item 10): the mode, as the pages and the console read it, and invitations.
import { BASE, PLAYER_ID } from './example-story.ts';
import { recordSchema } from './record-schema.ts';

/** Who may create an account: the REGISTRATION setting's values and the console's. */
export const REGISTRATION_MODES = ['open', 'invite', 'closed'] as const;
export type RegistrationModeName = (typeof REGISTRATION_MODES)[number];
export const MODE_SCHEMA = { type: 'string', enum: REGISTRATION_MODES } as const;
/** A mode, or null: the console follows the setting. */
export const MODE_OR_NULL_SCHEMA = { type: ['string', 'null'], enum: [...REGISTRATION_MODES, null] } as const;

/** GET /api/auth/registration: what the register page shows; `invite` only when the request named one. */
export interface PublicRegistration {
  mode: RegistrationModeName;
  /** The invitation the page was opened with: whether it can be used, and if not why (the message a refusal would give). */
  invite: { usable: boolean; problem: string | null } | null;
}

export const PUBLIC_REGISTRATION_SCHEMA = recordSchema<PublicRegistration>({
  mode: MODE_SCHEMA,
  invite: {
    type: ['object', 'null'],
    additionalProperties: false,
    required: ['usable', 'problem'],
    properties: { usable: { type: 'boolean' }, problem: { type: ['string', 'null'] } },
  },
});

export const PUBLIC_REGISTRATION_EXAMPLE: PublicRegistration = { mode: 'invite', invite: { usable: true, problem: null } };

/** GET /api/admin/registration: the mode in force, the setting's, and the console's choice if one was made. */
export interface RegistrationState {
  mode: RegistrationModeName;
  /** The REGISTRATION setting: the mode whenever the console has not chosen one. */
  setting: RegistrationModeName;
  /** The console's choice, which overrides the setting on every instance; null when none. */
  chosen: RegistrationModeName | null;
  /** Unix seconds of the console's choice, and who made it; null when none. */
  changed_at: number | null;
  changed_by: string | null;
}

export const REGISTRATION_STATE_SCHEMA = recordSchema<RegistrationState>({
  mode: MODE_SCHEMA,
  setting: MODE_SCHEMA,
  chosen: MODE_OR_NULL_SCHEMA,
  changed_at: { type: ['integer', 'null'] },
  changed_by: { type: ['string', 'null'] },
});

export const REGISTRATION_STATE_EXAMPLE: RegistrationState = {
  mode: 'invite',
  setting: 'open',
  chosen: 'invite',
  changed_at: 1767225600,
  changed_by: 'Owner',
};

export type InviteStatus = 'usable' | 'used' | 'expired' | 'revoked';

/** An invitation as the console lists it; the code itself is never stored, so never listed. */
export interface InviteRecord {
  id: number;
  note: string;
  status: InviteStatus;
  /** Who made it (a username), or "" when that account is gone. */
  created_by: string;
  /** Unix seconds. */
  created_at: number;
  expires_at: number;
  used_at: number | null;
  /** The account the invitation made: its id and its username (the mail address before registration step 3). */
  used_by: { id: number; name: string } | null;
  revoked_at: number | null;
}

export const INVITE_RECORD_SCHEMA = recordSchema<InviteRecord>({
  id: { type: 'integer' },
  note: { type: 'string' },
  status: { type: 'string', enum: ['usable', 'used', 'expired', 'revoked'] },
  created_by: { type: 'string' },
  created_at: { type: 'integer' },
  expires_at: { type: 'integer' },
  used_at: { type: ['integer', 'null'] },
  used_by: {
    type: ['object', 'null'],
    additionalProperties: false,
    required: ['id', 'name'],
    properties: { id: { type: 'integer' }, name: { type: 'string' } },
  },
  revoked_at: { type: ['integer', 'null'] },
});

export const INVITE_RECORD_EXAMPLE: InviteRecord = {
  id: 3,
  note: 'for Alex from the server forum',
  status: 'used',
  created_by: 'Owner',
  created_at: 1767225600,
  expires_at: 1767830400,
  used_at: 1767229200,
  used_by: { id: PLAYER_ID, name: 'Steve' },
  revoked_at: null,
};

/** POST /api/admin/invites: the new invitation and its link, shown this once. */
export interface NewInvite {
  link: string;
  invite: InviteRecord;
}

export const NEW_INVITE_SCHEMA = recordSchema<NewInvite>({ link: { type: 'string' }, invite: INVITE_RECORD_SCHEMA });

export const NEW_INVITE_EXAMPLE: NewInvite = {
  link: `${BASE}/register?invite=q3Vf8LkQ2xN7cR1tYb5wZ0aD`,
  invite: { ...INVITE_RECORD_EXAMPLE, status: 'usable', used_at: null, used_by: null },
};
