// Shared by the service and the pages (web/ bundles this file): Yggdrasil Connect's scopes (contract section 18), the
// one list the provider offers, the consent pages put into words and the grants keep. It imports nothing.

export const SCOPES = {
  select: 'Yggdrasil.PlayerProfiles.Select',
  read: 'Yggdrasil.PlayerProfiles.Read',
  join: 'Yggdrasil.Server.Join',
} as const;

/** Every scope a launcher may ask for; any other is refused with invalid_scope (contract 15b). */
export const SUPPORTED_SCOPES: readonly string[] = [
  'openid',
  'profile',
  'email',
  'offline_access',
  SCOPES.select,
  SCOPES.read,
  SCOPES.join,
];

/**
 * Whether a grant of `scopes` makes game tokens: Select and Join together. Such a token joins servers as the chosen
 * profile and, as any game login, changes its skin and cape; the pages and mails say so.
 */
export function makesGameTokens(scopes: Iterable<string>): boolean {
  const asked = new Set(scopes);
  return asked.has(SCOPES.select) && asked.has(SCOPES.join);
}
