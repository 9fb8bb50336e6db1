// Names and UUIDs to profiles, as Mojang's hosts answer them (contract section 25, research wire-shapes-26 §6.4):
// unauthenticated, without regard to the letter case of a name, at most 10 names at once, Mojang's refusals.
import type { Kysely } from 'kysely';
import { normalizeUuid } from '../accounts/identifiers.ts';
import type { Database } from '../database/schema.ts';
import { LOOKUP_NAME_PATTERN, playerNameKey } from '../minecraft/player-names.ts';
import type { FallThrough } from '../yggdrasil/service.ts';
import { profileRef, type ProfileRef } from '../yggdrasil/shapes.ts';
import { constraintViolation, ServicesError } from './errors.ts';

/** Mojang's cap on a bulk look-up (and Drasl's MAX_PLAYER_NAMES_TO_IDS); authlib asks in pages of at most 10. */
export const MAX_NAMES_PER_LOOKUP = 10;

const lookupName = new RegExp(LOOKUP_NAME_PATTERN, 'u');

export class ProfileLookups {
  /** `fallThrough` (MOJANG_FALLBACK=auth): where names and UUIDs unknown here are looked for; names here always win. */
  constructor(
    private readonly db: Kysely<Database>,
    private readonly fallThrough: FallThrough | null = null,
  ) {}

  /** Names to profiles; unknown names are left out; an empty list, more than 10 or a name no rule allows: 400. */
  async byNames(names: string[]): Promise<ProfileRef[]> {
    if (names.length === 0) throw constraintViolation('getProfileName.profileNames: must not be empty');
    if (names.length > MAX_NAMES_PER_LOOKUP)
      throw constraintViolation(`getProfileName.profileNames: size must be between 0 and ${MAX_NAMES_PER_LOOKUP}`);
    const invalid = names.findIndex((name) => !lookupName.test(name));
    if (invalid !== -1) throw constraintViolation(`getProfileName.profileNames[${invalid}].<list element>: Invalid profile name`);
    const keys = [...new Set(names.map(playerNameKey))];
    const rows = await this.db.selectFrom('profiles').select(['uuid', 'name']).where('name_key', 'in', keys).execute();
    const found = new Set(rows.map((row) => playerNameKey(row.name)));
    const unknown = keys.filter((key) => !found.has(key));
    const elsewhere = unknown.length > 0 && this.fallThrough ? await this.fallThrough.lookUpNames(unknown) : [];
    return [...rows.map(profileRef), ...elsewhere];
  }

  /** One name to its profile: 404 naming it when nobody has it, 400 for a name no rule allows. */
  async byName(name: string): Promise<ProfileRef> {
    if (!lookupName.test(name)) throw constraintViolation('getProfileName.name: Invalid profile name');
    const row = await this.db
      .selectFrom('profiles')
      .select(['uuid', 'name'])
      .where('name_key', '=', playerNameKey(name))
      .executeTakeFirst();
    if (row) return profileRef(row);
    const [elsewhere] = this.fallThrough ? await this.fallThrough.lookUpNames([name]) : [];
    if (!elsewhere) throw new ServicesError(404, 'NOT_FOUND', `Couldn't find any profile with name ${name}`);
    return elsewhere;
  }

  /** A UUID (with or without dashes) to its profile, or null; 400 for what is no UUID. */
  async byUuid(raw: string): Promise<ProfileRef | null> {
    const uuid = normalizeUuid(raw);
    if (!uuid) throw constraintViolation(`Not a valid UUID: ${raw}`);
    const row = await this.db.selectFrom('profiles').select(['uuid', 'name']).where('uuid', '=', uuid).executeTakeFirst();
    if (row) return profileRef(row);
    const elsewhere = this.fallThrough ? await this.fallThrough.profile(uuid, false) : null;
    return elsewhere ? { id: elsewhere.id, name: elsewhere.name } : null;
  }
}
