// The account rules of contract section 2 that the pages word for a player as well as the API checks them. Shared by
// the service and the pages (web/ bundles this file): it imports nothing.

/** A password's length in characters. */
export const PASSWORD_LENGTH = { min: 8, max: 256 } as const;
