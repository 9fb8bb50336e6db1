import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import { ManualClock } from '../../test/support/clock.ts';
import { ApiError } from '../http/envelope.ts';
import { limitSubjectOf, MemoryCounterStore, RateLimiter, RedisCounterStore, type CounterStore, type RateRule } from './limiter.ts';

const rule: RateRule = { name: 'test', limit: 3, windowMs: 60_000, message: 'slow down' };

async function refusal(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof ApiError);
    return error;
  }
  assert.fail('expected a 429');
}

/** Counts the steps of every iteration over any Map while `run` runs (the memory store's windows are in Maps). */
async function mapIterationSteps(run: () => Promise<void>): Promise<number> {
  const methods = ['entries', 'keys', 'values'] as const;
  const originals = methods.map((name) => Map.prototype[name]);
  const originalIterator = Map.prototype[Symbol.iterator];
  let steps = 0;
  const counting = <T>(iterator: MapIterator<T>): MapIterator<T> => {
    const next = iterator.next.bind(iterator);
    iterator.next = () => {
      steps += 1;
      return next();
    };
    return iterator;
  };
  methods.forEach((name, index) => {
    const original = originals[index] as (this: Map<unknown, unknown>) => MapIterator<unknown>;
    (Map.prototype as any)[name] = function (this: Map<unknown, unknown>) {
      return counting(original.call(this));
    };
  });
  Map.prototype[Symbol.iterator] = Map.prototype.entries;
  try {
    await run();
  } finally {
    methods.forEach((name, index) => ((Map.prototype as any)[name] = originals[index]));
    Map.prototype[Symbol.iterator] = originalIterator;
  }
  return steps;
}

/** Counting before checking (contract section 15): of many takes at once, exactly the limit pass; refused ones count nothing. */
function takesAtOnce(newStore: () => CounterStore) {
  it('lets exactly the limit through of 100 takes at once, counting nothing for the refused ones, all or none', async () => {
    const limiter = new RateLimiter(newStore());
    const tenRule = { ...rule, limit: 10 };
    const results = await Promise.allSettled(Array.from({ length: 100 }, () => limiter.take(tenRule, 'a')));
    assert.equal(results.filter((result) => result.status === 'fulfilled').length, 10);
    await limiter.refund(tenRule, 'a');
    await limiter.take(tenRule, 'a');
    await refusal(limiter.take(tenRule, 'a'));

    const other = { ...rule, name: 'other' };
    await refusal(
      limiter.takeAll([
        [other, 'b'],
        [tenRule, 'a'],
      ]),
    );
    assert.deepEqual(await limiter.takeAll([[other, 'b']]), [1], 'the refused take counted nothing on the other limit');
  });
}

describe('limit subjects of client addresses', () => {
  it('counts IPv4 as itself, IPv4-mapped IPv6 as IPv4, and IPv6 by its /64', () => {
    assert.equal(limitSubjectOf('192.0.2.7'), '192.0.2.7');
    assert.equal(limitSubjectOf('::ffff:192.0.2.7'), '192.0.2.7');
    assert.equal(limitSubjectOf('::FFFF:192.0.2.7'), '192.0.2.7');
    assert.equal(limitSubjectOf('2001:db8:1:2:3:4:5:6'), '2001:db8:1:2::/64');
    assert.equal(limitSubjectOf('2001:0DB8:0001:0002::ffff'), '2001:db8:1:2::/64');
    assert.equal(limitSubjectOf('2001:db8::1'), '2001:db8:0:0::/64');
    assert.equal(limitSubjectOf('fe80::1%eth0'), 'fe80:0:0:0::/64');
    assert.equal(limitSubjectOf('::1'), '0:0:0:0::/64');
    assert.equal(limitSubjectOf('64:ff9b::192.0.2.7'), '64:ff9b:0:0::/64');
    assert.equal(limitSubjectOf('1:2:3:4:5:6:192.0.2.7'), '1:2:3:4::/64');
  });
});

describe('rate limiter in memory', () => {
  takesAtOnce(() => new MemoryCounterStore(new ManualClock()));

  it('opens a window without scanning the others, also with 150,000 live ones', async () => {
    const clock = new ManualClock();
    const limiter = new RateLimiter(new MemoryCounterStore(clock));
    for (let index = 0; index < 150_000; index += 1) await limiter.take(rule, `filler ${index}`);
    const steps = await mapIterationSteps(async () => {
      for (let index = 0; index < 100; index += 1) await limiter.take(rule, `new ${index}`);
      clock.advance(rule.windowMs); // every window ends: dropped as new ones open, a few at each
      for (let index = 0; index < 100; index += 1) await limiter.take(rule, `later ${index}`);
    });
    assert.ok(steps < 1_000, `${steps} steps over Maps for 200 windows opened`);
  });

  it('keeps at most its cap of windows, forgetting the ones that end first', async () => {
    const clock = new ManualClock();
    const limiter = new RateLimiter(new MemoryCounterStore(clock, 1_000));
    const shortRule = { ...rule, limit: 1_000 };
    const longRule = { ...shortRule, name: 'long', windowMs: 10 * rule.windowMs };
    const countOn = async (counted: RateRule, subject: string) => (await limiter.takeAll([[counted, subject]]))[0];
    for (let index = 0; index < 500; index += 1) await countOn(longRule, `long ${index}`);
    for (let index = 0; index < 1_000; index += 1) await countOn(shortRule, `short ${index}`);
    assert.equal(await countOn(shortRule, 'short 0'), 1, 'the first short window was forgotten (it ends first)');
    assert.equal(await countOn(longRule, 'long 0'), 2, 'the long ones are kept');
    assert.equal(await countOn(shortRule, 'short 999'), 2);
  });

  it('refuses over the limit with Retry-After, per subject, until the window passes', async () => {
    const clock = new ManualClock();
    const limiter = new RateLimiter(new MemoryCounterStore(clock));
    for (let i = 0; i < 3; i += 1) await limiter.take(rule, 'a');
    const refused = await refusal(limiter.take(rule, 'a'));
    assert.equal(refused.status, 429);
    assert.equal(refused.headers['retry-after'], '60');
    await limiter.take(rule, 'b');
    clock.advance(30_000);
    assert.equal((await refusal(limiter.take(rule, 'A'))).headers['retry-after'], '30', 'subjects ignore letter case');
    clock.advance(30_000);
    await limiter.take(rule, 'a');
  });

  it('forgets a subject on request', async () => {
    const limiter = new RateLimiter(new MemoryCounterStore(new ManualClock()));
    for (let i = 0; i < 3; i += 1) await limiter.take(rule, 'a');
    await refusal(limiter.take(rule, 'a'));
    await limiter.forget(rule, 'a');
    await limiter.take(rule, 'a');
  });
});

const redisUrl = process.env.TEST_REDIS_URL;
if (process.env.REQUIRE_SERVICES === '1' && !redisUrl) throw new Error('REQUIRE_SERVICES=1 but TEST_REDIS_URL is not set');
describe('rate limiter in Redis', { skip: redisUrl ? false : 'set TEST_REDIS_URL to run the Redis suite' }, () => {
  const clients: Redis[] = [];
  after(async () => {
    for (const client of clients) await client.quit();
  });
  const store = (prefix = `test:${randomBytes(4).toString('hex')}:`) => {
    const client = new Redis(redisUrl!);
    clients.push(client);
    return new RedisCounterStore(client, prefix);
  };
  const instance = (prefix: string) => new RateLimiter(store(prefix));

  takesAtOnce(store);

  it('shares one count between instances and expires it', async () => {
    const prefix = `test:${randomBytes(4).toString('hex')}:`;
    const first = instance(prefix);
    const second = instance(prefix);
    const shortRule = { ...rule, windowMs: 300 };
    await first.take(shortRule, 'a');
    await second.take(shortRule, 'a');
    await first.take(shortRule, 'a');
    const refused = await refusal(second.take(shortRule, 'a'));
    assert.equal(refused.headers['retry-after'], '1');
    await new Promise((resolve) => setTimeout(resolve, 350));
    await second.take(shortRule, 'a');
  });
});
