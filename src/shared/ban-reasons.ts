// The game's ban reasons (contract section 24): each by its name in the game's own list and the number the game is
// sent (banStatus reason, a number in a string), and `other`, which carries the administrator's message. Shared by
// the service and the pages (web/ bundles this file): it imports nothing.

/** The game's reasons and their numbers (Minecraft's BanReason; where the game knows several numbers, the first). */
export const GAME_BAN_REASONS = {
  FALSE_REPORTING: 2,
  HATE_SPEECH: 5,
  HATE_TERRORISM_NOTORIOUS_FIGURE: 16,
  GENERIC_VIOLATION: 17,
  HARASSMENT_OR_BULLYING: 21,
  DEFAMATION_IMPERSONATION_FALSE_INFORMATION: 27,
  DRUGS: 28,
  FRAUD: 29,
  SPAM_OR_ADVERTISING: 30,
  NUDITY_OR_PORNOGRAPHY: 32,
  SEXUALLY_INAPPROPRIATE: 33,
  EXTREME_VIOLENCE_OR_GORE: 34,
  IMMINENT_HARM_TO_PERSON_OR_PROPERTY: 53,
} as const;

/** `other`: a number the game does not know, so that it shows "Code: 1000 - <message>". */
export const OTHER_BAN_REASON_NUMBER = 1000;

export type GameBanReason = keyof typeof GAME_BAN_REASONS;
export type BanReason = GameBanReason | 'other';

/** Every reason an administrator may give, in the order the console lists them. */
export const BAN_REASONS: readonly BanReason[] = [...(Object.keys(GAME_BAN_REASONS) as GameBanReason[]), 'other'];

/** multiplayer: online play only (the player still logs in and plays alone); account: every way in. */
export const BAN_SCOPES = ['multiplayer', 'account'] as const;
export type BanScope = (typeof BAN_SCOPES)[number];

/** The number the game is sent for `reason`. */
export const gameReasonNumber = (reason: BanReason): number => (reason === 'other' ? OTHER_BAN_REASON_NUMBER : GAME_BAN_REASONS[reason]);
