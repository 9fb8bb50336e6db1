// The user detail of interface.md 2.4 (GET /api/home, the admin user view): type, response schema and example.
import { LANGUAGES } from '../../shared/languages.ts';
import { CAPE_UUID, PLAYER_UUID, SKIN_UUID } from './example-story.ts';
import { SECOND_PROFILE_UUID, type DetailProfile } from './profile-record.ts';
import { recordSchema } from './record-schema.ts';

export interface UserDetail {
  Username: string;
  Uuid: string;
  Mail: string;
  Mail_verify: number;
  /** Numeric id of the selected cape (interface.md types it as an integer); 0 when none. */
  Selected_Cape: number;
  /** UUID of the selected skin; "" when none. */
  Selected_Skin: string;
  PermLvl: number;
  Capes: { Id: string; Name: string }[];
  Skins: { uuid: string; name: string; cloak_id: string }[];
  Discord_integration: boolean;
  Discord: { userid: string; username: string; avatar: string };
  Mail_verification: number;
  /** Beyond interface.md (contract section 12): whether two-factor login is on. */
  TwoFactor: boolean;
  /**
   * Beyond interface.md (contract section 26): false for a password-less account (registered through an OpenID Connect
   * provider without choosing one), which sets a password by the reset before anything that asks for it.
   */
  HasPassword: boolean;
  /** Beyond interface.md (contract section 14): the language of the account's mails, en, ru or zh-CN. */
  Language: string;
  /** Beyond interface.md (contract section 16): the account's game profiles in creation order, the primary first;
   * a skin or cape not worn is "". */
  Profiles: DetailProfile[];
  /** Beyond interface.md (contract section 16): the profile limit in force for the account; -1 unlimited. */
  MaxProfiles: number;
  /** Beyond interface.md (contract section 26): the linked OpenID Connect identities, by provider id. */
  Identities: { provider: string; name: string; subject_hint: string }[];
  /** Beyond interface.md (contract section 20): the linked official account of the first source (Mojang), else null. */
  Premium: { uuid: string; name: string; source: string } | null;
  /** Beyond interface.md (contract section 20): every linked official account, one per source, in source order. */
  PremiumLinks: { uuid: string; name: string; source: string }[];
  /** Beyond interface.md, only in the admin view: the user id. */
  Id?: number;
  /** Beyond interface.md, only in the admin view: the stored perms (PermLvl is the effective level). */
  Perms?: number;
  /** Beyond interface.md, only in the admin view: the account's own profile limit; null when MAX_PROFILES applies. */
  OwnMaxProfiles?: number | null;
  /** Beyond interface.md, only in the admin view: how many passkeys the account has (the editor offers to remove them). */
  Passkeys?: number;
  /** Beyond interface.md, only in the admin view (contract section 24): whether the player's online chat is on. */
  Chat?: boolean;
  /** Beyond interface.md, only in the admin view: the account's library publications skip LIBRARY_REVIEW. */
  ReviewExempt?: boolean;
}

export const USER_DETAIL_SCHEMA = recordSchema<UserDetail>(
  {
    Username: { type: 'string' },
    Uuid: { type: 'string' },
    Mail: { type: 'string' },
    Mail_verify: { type: 'integer' },
    Selected_Cape: { type: 'integer' },
    Selected_Skin: { type: 'string' },
    PermLvl: { type: 'integer' },
    Capes: { type: 'array', items: recordSchema<UserDetail['Capes'][number]>({ Id: { type: 'string' }, Name: { type: 'string' } }) },
    Skins: {
      type: 'array',
      items: recordSchema<UserDetail['Skins'][number]>({
        uuid: { type: 'string' },
        name: { type: 'string' },
        cloak_id: { type: 'string' },
      }),
    },
    Discord_integration: { type: 'boolean' },
    Discord: recordSchema<UserDetail['Discord']>({ userid: { type: 'string' }, username: { type: 'string' }, avatar: { type: 'string' } }),
    Mail_verification: { type: 'integer' },
    TwoFactor: { type: 'boolean' },
    HasPassword: { type: 'boolean' },
    Language: { type: 'string', enum: [...LANGUAGES] },
    Profiles: {
      type: 'array',
      items: recordSchema<DetailProfile>({
        Uuid: { type: 'string' },
        Username: { type: 'string' },
        Primary: { type: 'boolean' },
        Selected_Skin: { type: 'string' },
        Selected_Cape: { type: 'string' },
      }),
    },
    MaxProfiles: { type: 'integer' },
    Identities: {
      type: 'array',
      items: recordSchema<UserDetail['Identities'][number]>({
        provider: { type: 'string' },
        name: { type: 'string' },
        subject_hint: { type: 'string' },
      }),
    },
    Premium: {
      anyOf: [
        { type: 'null' },
        recordSchema<{ uuid: string; name: string; source: string }>({
          uuid: { type: 'string' },
          name: { type: 'string' },
          source: { type: 'string' },
        }),
      ],
    },
    PremiumLinks: {
      type: 'array',
      items: recordSchema<UserDetail['PremiumLinks'][number]>({
        uuid: { type: 'string' },
        name: { type: 'string' },
        source: { type: 'string' },
      }),
    },
    Id: { type: 'integer' },
    Perms: { type: 'integer' },
    OwnMaxProfiles: { type: ['integer', 'null'] },
    Passkeys: { type: 'integer' },
    Chat: { type: 'boolean' },
    ReviewExempt: { type: 'boolean' },
  },
  { Id: true, Perms: true, OwnMaxProfiles: true, Passkeys: true, Chat: true, ReviewExempt: true },
);

export const USER_DETAIL_EXAMPLE: UserDetail = {
  Username: 'Steve',
  Uuid: PLAYER_UUID,
  Mail: 'steve@example.org',
  Mail_verify: 1,
  Selected_Cape: 3,
  Selected_Skin: SKIN_UUID,
  PermLvl: 0,
  Capes: [{ Id: CAPE_UUID, Name: 'Founder' }],
  Skins: [{ uuid: SKIN_UUID, name: 'Summer', cloak_id: CAPE_UUID }],
  Discord_integration: false,
  Discord: { userid: '', username: '', avatar: '' },
  Mail_verification: 1,
  TwoFactor: false,
  HasPassword: true,
  Language: 'en',
  Profiles: [
    { Uuid: PLAYER_UUID, Username: 'Steve', Primary: true, Selected_Skin: SKIN_UUID, Selected_Cape: '' },
    { Uuid: SECOND_PROFILE_UUID, Username: 'Alex_', Primary: false, Selected_Skin: '', Selected_Cape: '' },
  ],
  MaxProfiles: 3,
  Identities: [{ provider: 'keycloak', name: 'steve', subject_hint: '…4f2a' }],
  Premium: null,
  PremiumLinks: [],
};
