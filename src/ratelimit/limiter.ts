// Fixed-window counters for the limits of contract section 2: failed logins, wrong codes and mails sent.
// Counted in memory, or in Redis when REDIS_URL is set so that several instances share one count.
import type { Redis } from 'ioredis';
import type { Clock } from '../clock.ts';
import { tooManyRequests } from '../http/envelope.ts';

export interface RateRule {
  /** Prefix of the counter's key; also names the limit in logs. */
  name: string;
  limit: number;
  windowMs: number;
  /** Shown to the client with the 429. */
  message: string;
}

export const RULES = {
  loginFailuresPerAddress: {
    name: 'login-fail-ip',
    limit: 30,
    windowMs: 15 * 60_000,
    message: 'limits.loginFailuresPerAddress',
  },
  loginFailuresPerAccount: {
    name: 'login-fail-user',
    limit: 10,
    windowMs: 15 * 60_000,
    message: 'limits.loginFailuresPerAccount',
  },
  codeFailuresPerAddress: {
    name: 'code-fail-ip',
    limit: 10,
    windowMs: 15 * 60_000,
    message: 'limits.codeFailuresPerAddress',
  },
  mailsPerAddress: {
    name: 'mail-ip',
    limit: 10,
    windowMs: 60 * 60_000,
    message: 'limits.mailsPerAddress',
  },
  mailsPerRecipient: {
    name: 'mail-to',
    limit: 1,
    windowMs: 60_000,
    message: 'limits.mailsPerRecipient',
  },
} satisfies Record<string, RateRule>;

interface Window {
  count: number;
  /** Time left until the window ends and the count starts again from zero. */
  retryAfterMs: number;
}

interface StoredWindow {
  count: number;
  resetsAt: number;
}

export interface CounterStore {
  /** Adds one and returns the window after the increment. */
  increment(key: string, windowMs: number): Promise<Window>;
  read(key: string): Promise<Window | null>;
  clear(key: string): Promise<void>;
}

export class MemoryCounterStore implements CounterStore {
  private readonly windows = new Map<string, StoredWindow>();

  constructor(private readonly clock: Clock) {}

  async increment(key: string, windowMs: number): Promise<Window> {
    const now = this.clock.now();
    let window = this.current(key, now);
    if (!window) {
      if (this.windows.size > 100_000) this.dropExpired(now);
      window = { count: 0, resetsAt: now + windowMs };
      this.windows.set(key, window);
    }
    window.count += 1;
    return { count: window.count, retryAfterMs: window.resetsAt - now };
  }

  async read(key: string): Promise<Window | null> {
    const now = this.clock.now();
    const window = this.current(key, now);
    return window ? { count: window.count, retryAfterMs: window.resetsAt - now } : null;
  }

  async clear(key: string): Promise<void> {
    this.windows.delete(key);
  }

  private current(key: string, now: number): StoredWindow | undefined {
    const window = this.windows.get(key);
    if (window && window.resetsAt <= now) {
      this.windows.delete(key);
      return undefined;
    }
    return window;
  }

  private dropExpired(now: number) {
    for (const [key, window] of this.windows) if (window.resetsAt <= now) this.windows.delete(key);
  }
}

// INCR and PEXPIRE in one step, so a crash between them cannot leave a counter that never expires.
const INCREMENT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return {count, redis.call('PTTL', KEYS[1])}`;

export class RedisCounterStore implements CounterStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'skinservice:rate:',
  ) {}

  async increment(key: string, windowMs: number): Promise<Window> {
    const [count, ttl] = (await this.redis.eval(INCREMENT_SCRIPT, 1, this.prefix + key, windowMs)) as [number, number];
    return { count, retryAfterMs: Math.max(ttl, 0) };
  }

  async read(key: string): Promise<Window | null> {
    const [count, ttl] = await this.redis
      .multi()
      .get(this.prefix + key)
      .pttl(this.prefix + key)
      .exec()
      .then((replies) => (replies ?? []).map(([, value]) => value));
    if (count === null || count === undefined || (ttl as number) <= 0) return null;
    return { count: Number(count), retryAfterMs: ttl as number };
  }

  async clear(key: string): Promise<void> {
    await this.redis.del(this.prefix + key);
  }
}

export class RateLimiter {
  constructor(private readonly store: CounterStore) {}

  /** Refuses with 429 when the limit is already used up, without counting this call. */
  async ensureAllowed(rule: RateRule, subject: string): Promise<void> {
    const window = await this.store.read(keyOf(rule, subject));
    if (window && window.count >= rule.limit) throw this.refusal(rule, window);
  }

  /** Counts one event; returns the count so far in this window. */
  async count(rule: RateRule, subject: string): Promise<number> {
    return (await this.store.increment(keyOf(rule, subject), rule.windowMs)).count;
  }

  /** Counts one event and refuses with 429 when it goes over the limit. */
  async take(rule: RateRule, subject: string): Promise<void> {
    const window = await this.store.increment(keyOf(rule, subject), rule.windowMs);
    if (window.count > rule.limit) throw this.refusal(rule, window);
  }

  async forget(rule: RateRule, subject: string): Promise<void> {
    await this.store.clear(keyOf(rule, subject));
  }

  private refusal(rule: RateRule, window: Window) {
    return tooManyRequests(rule.message, window.retryAfterMs / 1000);
  }
}

const keyOf = (rule: RateRule, subject: string) => `${rule.name}:${subject.toLowerCase()}`;
