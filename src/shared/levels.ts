// Shared by the service and the pages (web/ bundles this file): it imports nothing, so the page build takes only these
// constants.

/** Permission levels of contract section 3. */
export const LEVELS = { banned: -1, player: 0, moderator: 1, admin: 2, owner: 3 } as const;

export type LevelName = keyof typeof LEVELS;

/** The name of a permission level, or undefined for a number that is none. */
export const levelNameOf = (level: number): LevelName | undefined =>
  (Object.keys(LEVELS) as LevelName[]).find((name) => LEVELS[name] === level);
