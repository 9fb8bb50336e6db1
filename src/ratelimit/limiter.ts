// Fixed-window counters for the limits of contract section 2: failed logins, wrong codes and mails sent.
// Counted in memory, or in Redis when REDIS_URL is set so that several instances share one count.
import { isIPv6 } from 'node:net';
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
  /** The subject is a client address, counted by limitSubjectOf (an IPv6 address by its /64). */
  perClientAddress?: boolean;
}

export const RULES = {
  loginFailuresPerAccountAndAddress: {
    name: 'login-fail-user-ip',
    limit: 10,
    windowMs: 15 * 60_000,
    message: 'limits.loginFailuresPerAccountAndAddress',
  },
  loginFailuresPerAddress: {
    name: 'login-fail-ip',
    limit: 30,
    windowMs: 15 * 60_000,
    message: 'limits.loginFailuresPerAddress',
    perClientAddress: true,
  },
  loginFailuresPerAccount: {
    name: 'login-fail-user',
    limit: 100,
    windowMs: 15 * 60_000,
    message: 'limits.loginFailuresPerAccount',
  },
  // Only someone who got past the password (or is logged in) reaches a two-factor code, so this per-account limit,
  // unlike the login limits, cannot be filled by a stranger: it keeps a stolen password's code guessing at 10 a window.
  secondFactorFailuresPerAccount: {
    name: 'second-factor-fail-user',
    limit: 10,
    windowMs: 15 * 60_000,
    message: 'limits.secondFactorFailuresPerAccount',
  },
  codeFailuresPerAddress: {
    name: 'code-fail-ip',
    limit: 10,
    windowMs: 15 * 60_000,
    message: 'limits.codeFailuresPerAddress',
    perClientAddress: true,
  },
  // A typed mail code names its account (by its continuation or its mail address: contract section 15b), per purpose
  // (the subject is `purpose:user id`). A stranger who fills it delays only typing: the mailed link's token is not
  // counted here.
  codeFailuresPerAccount: {
    name: 'code-fail-user',
    limit: 10,
    windowMs: 15 * 60_000,
    message: 'limits.codeFailuresPerAccount',
  },
  // Each login challenge is a row until it ends: enough for a person who opens the login page again and again.
  passkeyChallengesPerAddress: {
    name: 'passkey-challenge-ip',
    limit: 60,
    windowMs: 15 * 60_000,
    message: 'limits.passkeyChallengesPerAddress',
    perClientAddress: true,
  },
  // Each device or authorization request of Yggdrasil Connect is a row until it ends (10 minutes): a launcher asks once
  // per login, so this is far more than a player needs and keeps a stranger's rows bounded (contract 15b).
  oauthRequestsPerAddress: {
    name: 'oauth-request-ip',
    limit: 30,
    windowMs: 15 * 60_000,
    message: 'limits.oauthRequestsPerAddress',
    perClientAddress: true,
  },
  mailsPerAddress: {
    name: 'mail-ip',
    limit: 10,
    windowMs: 60 * 60_000,
    message: 'limits.mailsPerAddress',
    perClientAddress: true,
  },
  mailsPerRecipient: {
    name: 'mail-to',
    limit: 1,
    windowMs: 60_000,
    message: 'limits.mailsPerRecipient',
  },
  // Contract section 15b: an image not in the render cache costs up to tens of milliseconds of CPU; cached ones are free.
  rendersPerAddress: {
    name: 'render-ip',
    limit: 600,
    windowMs: 60_000,
    message: 'limits.rendersPerAddress',
    perClientAddress: true,
  },
} satisfies Record<string, RateRule>;

/**
 * What a limit counts for a client address: an IPv4 address itself (also written IPv4-mapped, ::ffff:1.2.3.4), an
 * IPv6 address its /64, the smallest network a provider gives one customer, so that one customer's 2^64 addresses
 * count once. The one place of this rule: per-address limits and the per-account-and-address login limit use it.
 */
export function limitSubjectOf(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (isIPv6(address)) return `${networkOf64(address)}::/64`;
  return address;
}

/** The first four groups of an IPv6 address, each without leading zeros. */
function networkOf64(address: string): string {
  // Written out in full first: what :: stands for, and a trailing dotted IPv4 part (the last 32 bits) as two groups.
  const [head, tail] = address.toLowerCase().split('%')[0]!.split('::') as [string, string | undefined];
  const groupsOf = (part: string | undefined) =>
    !part ? [] : part.split(':').flatMap((group) => (group.includes('.') ? ['0', '0'] : [group]));
  const front = groupsOf(head);
  const back = groupsOf(tail);
  const groups = [...front, ...Array<string>(8 - front.length - back.length).fill('0'), ...back];
  return groups
    .slice(0, 4)
    .map((group) => parseInt(group, 16).toString(16))
    .join(':');
}

/** One counter a take() counts on: the rule's key for one subject. */
export interface Counter {
  key: string;
  limit: number;
  windowMs: number;
}

/** What takeAll() did: counted on every counter (their counts after it), or on none because `refused` was full. */
export type Taken = { counts: number[]; refused?: undefined } | { counts?: undefined; refused: number; retryAfterMs: number };

export interface CounterStore {
  /**
   * In one atomic step: when every counter is below its limit, adds one to each and answers their counts after it;
   * otherwise counts nothing and answers which counter is full. Requests arriving together can never all pass.
   */
  takeAll(counters: Counter[]): Promise<Taken>;
  /** Takes one back from a live window (never below zero); a window that has ended stays ended. */
  decrement(key: string): Promise<void>;
  clear(key: string): Promise<void>;
}

interface StoredWindow {
  key: string;
  count: number;
  resetsAt: number;
}

/** A first-in first-out queue whose shift is amortised O(1) (Array.prototype.shift moves every element). */
export class Queue<T> {
  private items: T[] = [];
  private head = 0;

  get length() {
    return this.items.length - this.head;
  }

  push(item: T) {
    this.items.push(item);
  }

  peek(): T | undefined {
    return this.items[this.head];
  }

  shift(): T | undefined {
    const item = this.items[this.head];
    this.head += 1;
    // Drops the taken slots once they are half the array: each element is moved at most once per halving.
    if (this.head * 2 >= this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item;
  }
}

/** Live windows a memory store keeps at most (about 200 bytes each) before it forgets the one that ends first. */
export const MAX_MEMORY_WINDOWS = 1_000_000;

export class MemoryCounterStore implements CounterStore {
  private readonly windows = new Map<string, StoredWindow>();
  /**
   * Every window opened, by its length, in the order opened: windows of one length end in that order, so the ended
   * ones are dropped from the front, never by a scan. An entry whose key was cleared or opened again stays queued
   * until it ends (the queues, not the map, bound the memory).
   */
  private readonly opened = new Map<number, Queue<StoredWindow>>();
  private queued = 0;

  constructor(
    private readonly clock: Clock,
    private readonly maxWindows = MAX_MEMORY_WINDOWS,
  ) {}

  async takeAll(counters: Counter[]): Promise<Taken> {
    const now = this.clock.now();
    const windows = counters.map(({ key }) => this.current(key, now));
    const refused = windows.findIndex((window, index) => window !== undefined && window.count >= counters[index]!.limit);
    if (refused >= 0) return { refused, retryAfterMs: windows[refused]!.resetsAt - now };
    const counts = counters.map(({ key, windowMs }, index) => {
      const window = windows[index] ?? this.open(key, windowMs, now);
      window.count += 1;
      return window.count;
    });
    return { counts };
  }

  async decrement(key: string): Promise<void> {
    const window = this.current(key, this.clock.now());
    if (window && window.count > 0) window.count -= 1;
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

  private open(key: string, windowMs: number, now: number): StoredWindow {
    this.dropEnded(now);
    if (this.queued >= this.maxWindows) this.dropFirstEnding();
    const window = { key, count: 0, resetsAt: now + windowMs };
    this.windows.set(key, window);
    let queue = this.opened.get(windowMs);
    if (!queue) this.opened.set(windowMs, (queue = new Queue()));
    queue.push(window);
    this.queued += 1;
    return window;
  }

  /** Amortised O(1) per window opened: each window is queued once and dropped once. */
  private dropEnded(now: number) {
    for (const queue of this.opened.values()) {
      while ((queue.peek()?.resetsAt ?? Infinity) <= now) this.drop(queue);
    }
  }

  /** Over the cap: forgets the window closest to its end (the one whose forgetting gives an attacker least). */
  private dropFirstEnding() {
    let first: Queue<StoredWindow> | undefined;
    for (const queue of this.opened.values()) {
      if (queue.length > 0 && (!first || queue.peek()!.resetsAt < first.peek()!.resetsAt)) first = queue;
    }
    if (first) this.drop(first);
  }

  private drop(queue: Queue<StoredWindow>) {
    const window = queue.shift()!;
    this.queued -= 1;
    // Only when the key still holds this window: a cleared key may have opened a new one since.
    if (this.windows.get(window.key) === window) this.windows.delete(window.key);
  }
}

// Every counter below its limit, then INCR (and PEXPIRE a new one) each, in one step: Redis runs a script alone, so
// requests arriving together at any instance can never all pass, and a crash cannot leave a counter that never
// expires. ARGV holds a limit and a window length per key. Answers {1, counts...} or {0, index of the full one, its PTTL}.
const TAKE_ALL_SCRIPT = `
for i, key in ipairs(KEYS) do
  if tonumber(redis.call('GET', key) or '0') >= tonumber(ARGV[2 * i - 1]) then
    return {0, i - 1, redis.call('PTTL', key)}
  end
end
local taken = {1}
for i, key in ipairs(KEYS) do
  local count = redis.call('INCR', key)
  if count == 1 then redis.call('PEXPIRE', key, ARGV[2 * i]) end
  taken[i + 1] = count
end
return taken`;

// DECR only a live counter above zero: a refund must neither revive an expired window nor go negative.
const DECREMENT_SCRIPT = `
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
if count > 0 then redis.call('DECR', KEYS[1]) end
return 0`;

export class RedisCounterStore implements CounterStore {
  constructor(
    private readonly redis: Redis,
    /** Where this service's counters live in Redis: app.ts names its database's deployment (migration 014). */
    private readonly prefix: string,
  ) {}

  async takeAll(counters: Counter[]): Promise<Taken> {
    const keys = counters.map(({ key }) => this.prefix + key);
    const limitsAndWindows = counters.flatMap(({ limit, windowMs }) => [limit, windowMs]);
    const [taken, ...rest] = (await this.redis.eval(TAKE_ALL_SCRIPT, keys.length, ...keys, ...limitsAndWindows)) as number[];
    if (taken === 1) return { counts: rest };
    return { refused: rest[0]!, retryAfterMs: Math.max(rest[1]!, 0) };
  }

  async decrement(key: string): Promise<void> {
    await this.redis.eval(DECREMENT_SCRIPT, 1, this.prefix + key);
  }

  async clear(key: string): Promise<void> {
    await this.redis.del(this.prefix + key);
  }
}

/** A rule and the subject it counts for: one counter of a take. */
export type Limit = readonly [rule: RateRule, subject: string];

export class RateLimiter {
  constructor(private readonly store: CounterStore) {}

  /** Counts one event, or refuses with 429 (counting nothing) when the limit is used up. */
  async take(rule: RateRule, subject: string): Promise<void> {
    await this.takeAll([[rule, subject]]);
  }

  /**
   * Counts one event on every limit in one atomic step, or on none and refuses with the 429 of a full one; answers
   * the counts after it. A secret's check takes its place this way before it runs, so that however many requests
   * arrive together no more secrets are checked than the limits allow (contract section 15).
   */
  async takeAll(limits: readonly Limit[]): Promise<number[]> {
    const taken = await this.store.takeAll(
      limits.map(([rule, subject]) => ({ key: keyOf(rule, subject), limit: rule.limit, windowMs: rule.windowMs })),
    );
    if (taken.refused !== undefined) throw tooManyRequests(limits[taken.refused]![0].message, taken.retryAfterMs / 1000);
    return taken.counts;
  }

  /** Takes back one counted by take(): the secret whose check it was counted for was right. */
  async refund(rule: RateRule, subject: string): Promise<void> {
    await this.store.decrement(keyOf(rule, subject));
  }

  async forget(rule: RateRule, subject: string): Promise<void> {
    await this.store.clear(keyOf(rule, subject));
  }
}

const keyOf = (rule: RateRule, subject: string) =>
  `${rule.name}:${(rule.perClientAddress ? limitSubjectOf(subject) : subject).toLowerCase()}`;
