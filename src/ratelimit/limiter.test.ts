import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import { ManualClock } from '../../test/support/clock.ts';
import { ApiError } from '../http/envelope.ts';
import { MemoryCounterStore, RateLimiter, RedisCounterStore, type RateRule } from './limiter.ts';

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

describe('rate limiter in memory', () => {
  it('refuses over the limit with Retry-After, per subject, until the window passes', async () => {
    const clock = new ManualClock();
    const limiter = new RateLimiter(new MemoryCounterStore(clock));
    for (let i = 0; i < 3; i += 1) await limiter.take(rule, 'a');
    const refused = await refusal(limiter.take(rule, 'a'));
    assert.equal(refused.status, 429);
    assert.equal(refused.headers['retry-after'], '60');
    await limiter.take(rule, 'b');
    clock.advance(30_000);
    assert.equal((await refusal(limiter.ensureAllowed(rule, 'A'))).headers['retry-after'], '30', 'subjects ignore letter case');
    clock.advance(30_000);
    await limiter.ensureAllowed(rule, 'a');
  });

  it('forgets a subject on request', async () => {
    const limiter = new RateLimiter(new MemoryCounterStore(new ManualClock()));
    for (let i = 0; i < 3; i += 1) await limiter.count(rule, 'a');
    await refusal(limiter.ensureAllowed(rule, 'a'));
    await limiter.forget(rule, 'a');
    await limiter.ensureAllowed(rule, 'a');
  });
});

const redisUrl = process.env.TEST_REDIS_URL;
if (process.env.REQUIRE_SERVICES === '1' && !redisUrl) throw new Error('REQUIRE_SERVICES=1 but TEST_REDIS_URL is not set');
describe('rate limiter in Redis', { skip: redisUrl ? false : 'set TEST_REDIS_URL to run the Redis suite' }, () => {
  const clients: Redis[] = [];
  after(async () => {
    for (const client of clients) await client.quit();
  });
  const instance = (prefix: string) => {
    const client = new Redis(redisUrl!);
    clients.push(client);
    return new RateLimiter(new RedisCounterStore(client, prefix));
  };

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
    await second.ensureAllowed(shortRule, 'a');
  });
});
