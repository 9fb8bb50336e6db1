// What every source reader hands the importer: accounts in one shape, whatever service they come from
// (contract section 17). Texture files are read only when the account is written, so a batch holds no images.
import type { Insertable } from 'kysely';
import type { HwidsTable } from '../database/schema.ts';

/** What the report counts, each as {imported, already, left_out}. */
export const COUNTED = ['accounts', 'profiles', 'skins', 'capes', 'hardware'] as const;
export type Counted = (typeof COUNTED)[number];

/** A texture file of the source: its bytes, or why it cannot be read (missing, a link out of the folder, a FIFO). */
export type SourceFile = () => Promise<Buffer | string>;

export interface ImportedSkin {
  /** The source's id of this wardrobe item, unique within the account. */
  key: string;
  name: string;
  slim: boolean;
  file: SourceFile;
  /** The cape shown with this skin (CookieCMS `cloak_id`): a key of the run's capes. */
  capeKey?: string | null;
}

/** A cape of the source, shared by whoever the source gave it to. */
export interface ImportedCape {
  /** The source's id of the cape, unique within the source. */
  key: string;
  name: string;
  file: SourceFile;
}

export interface ImportedProfile {
  uuid: string;
  name: string;
  /** Keys of the account's skins and of the capes it owns. */
  skinKey?: string | null;
  capeKey?: string | null;
}

/** A machine the source knew (CookieCMS `hwids`), in our hwids columns, with the source's id as its key. */
export type ImportedHardware = Omit<Insertable<HwidsTable>, 'id' | 'battery' | 'banned'> & {
  key: string;
  battery: boolean | null;
  banned: boolean | null;
};

export interface ImportedAccount {
  /** The source's id of the user. */
  key: string;
  /** How the report names it: its name, else its mail. */
  label: string;
  /** null: the source had none (Drasl, AuthMe); the account logs in with a profile name until it adds one. */
  mail: string | null;
  verified: boolean;
  /** Our level: -1 banned, 0 player, 1 moderator, 2 admin, 3 owner. */
  level: number;
  /** The stored password: `$argon2id$…` as ours, or tagged (src/accounts/imported-passwords.ts). */
  password: string;
  /** Unix milliseconds, when the source knows. */
  createdAt?: number;
  /** The first is the primary one; none: the account comes in before registration step 3. */
  profiles: ImportedProfile[];
  skins: ImportedSkin[];
  /** Capes the account owns (keys of the run's capes). */
  capes: string[];
  /** The Discord link: the id (64-bit, as a decimal string), the name, and the avatar as Discord's hash of it. */
  discord?: { id: string; username: string; avatar: string } | null;
  hardware?: ImportedHardware | null;
  /** The account's own profile limit (`users.max_profiles`: -1 unlimited); null or absent: the MAX_PROFILES setting. */
  maxProfiles?: number | null;
}

/** Something left out of the import, as the report lists it. */
export interface LeftOut {
  kind: 'account' | 'profile' | 'skin' | 'cape' | 'hardware' | 'password' | 'discord' | 'mail';
  source_id: string;
  name: string;
  reason: string;
}

/** A source reader: the capes first (by key), then the accounts in batches. */
export interface SourceReader {
  capes(): Promise<Map<string, ImportedCape>>;
  accounts(): AsyncIterable<{ accounts: ImportedAccount[]; leftOut: LeftOut[] }>;
}
