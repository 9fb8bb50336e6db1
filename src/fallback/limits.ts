// The limits of the premium link (contract section 20): a challenge renders a skin, a check asks the source (Mojang or
// another server) for a profile and a skin, uncached. Counted per account before the work, so that one account (a
// registering one too: joining with an existing account begins with a challenge) can neither keep the service drawing
// skins nor make it ask a source again and again, which might limit this service's address there.
import type { RateRule } from '../ratelimit/limiter.ts';

/** Challenge skins per account: a player who asks again for each of a few names, with room to spare. */
export const PREMIUM_CHALLENGES_PER_ACCOUNT: RateRule = {
  name: 'premium-challenge-user',
  limit: 30,
  windowMs: 15 * 60_000,
  message: 'limits.premiumChallengesPerAccount',
};

/** Checks against a source per account (the profile's verify and registration's step 3 with an existing account). */
export const PREMIUM_VERIFIES_PER_ACCOUNT: RateRule = {
  name: 'premium-verify-user',
  limit: 10,
  windowMs: 15 * 60_000,
  message: 'limits.premiumVerifiesPerAccount',
};
