// Reading the paths and query parameters of other services' URLs (contract section 13) the way those services do,
// leniently: parameters these URLs do not know are ignored, and cache keys are built from the known ones only.
import { normalizeUuid } from '../accounts/identifiers.ts';
import { badRequest } from '../http/envelope.ts';
import { textureDigestOf, type DefaultModel } from '../images/service.ts';
import { LOOKUP_NAME_PATTERN } from '../minecraft/player-names.ts';

export type Query = Record<string, string | string[] | undefined>;

/** The first value of a query parameter given once or more; undefined when absent. */
export function first(query: Query, name: string): string | undefined {
  const value = query[name];
  return Array.isArray(value) ? value[0] : value;
}

/** A flag as Crafatar reads it: present, with any value (even `false`), means on. */
export const present = (query: Query, name: string) => Object.hasOwn(query, name);

/**
 * Mojang's names: 1 to 16 letters, digits and underscores; ours are 3 to 16 of the same, and with
 * PROFILE_NAME_RULE=cjk CJK ideographs too (contract section 16): every name a lookup may be asked for.
 */
const PLAYER_NAME = new RegExp(LOOKUP_NAME_PATTERN);

/**
 * A player UUID (any case, with or without dashes; returned in the stored form), one of our texture digests (contract
 * section 25; returned lower case) or a name (returned lower case, how names are compared), so that every spelling of
 * one player shares one cache key. 400 for anything else.
 */
export function playerId(value: string): string {
  const uuid = normalizeUuid(value);
  if (uuid) return uuid;
  const digest = textureDigestOf(value);
  if (digest) return digest;
  if (PLAYER_NAME.test(value)) return value.toLowerCase();
  throw badRequest('images.playerId', { value: JSON.stringify(value) });
}

/** Crafatar's numbers: the leading integer of the text (as JavaScript's parseInt); 0 or no number counts as absent. */
export function leadingInteger(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const number = Number.parseInt(value, 10);
  return Number.isNaN(number) || number === 0 ? undefined : number;
}

/** Crafatar's `default`: its two built-in skins by either spelling, any letter case; anything else is ignored. */
export function crafatarDefault(value: string | undefined): DefaultModel | undefined {
  switch (value?.toLowerCase()) {
    case 'steve':
    case 'mhf_steve':
      return 'classic';
    case 'alex':
    case 'mhf_alex':
      return 'slim';
    default:
      return undefined;
  }
}
