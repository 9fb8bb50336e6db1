// Which player names the service accepts (contract section 16, PROFILE_NAME_RULE): the game's own rule, or that rule
// with the CJK Unified Ideographs too. Never `§` (the game's formatting sign), whitespace or control characters.
export const PLAYER_NAME_RULES = ['minecraft', 'cjk'] as const;
export type PlayerNameRule = (typeof PLAYER_NAME_RULES)[number];

const NAME_PATTERNS: Record<PlayerNameRule, RegExp> = {
  minecraft: /^[A-Za-z0-9_]{3,16}$/,
  cjk: /^[A-Za-z0-9_\u4E00-\u9FFF]{3,16}$/,
};

export function isPlayerName(value: string, rule: PlayerNameRule): boolean {
  return NAME_PATTERNS[rule].test(value);
}

/**
 * What a lookup by name may be asked for under either rule (1 to 16 characters: the game's own lookups allow short
 * names): anything else names nobody, and is answered without a query.
 */
export const LOOKUP_NAME = '[A-Za-z0-9_\u4E00-\u9FFF]{1,16}';
export const LOOKUP_NAME_PATTERN = `^${LOOKUP_NAME}$`;

/** Names are unique without regard to letter case: this is the form compared and stored in `*_key` columns. */
export const playerNameKey = (name: string) => name.toLowerCase();
