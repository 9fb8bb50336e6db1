// Every time-dependent rule reads the time from here, so tests can move it (code expiry, token expiry, role expiry).
export interface Clock {
  /** Unix milliseconds. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

export const unixSeconds = (ms: number) => Math.floor(ms / 1000);
