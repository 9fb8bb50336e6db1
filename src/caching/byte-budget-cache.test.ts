import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ByteBudgetCache, ENTRY_OVERHEAD_BYTES, ownedBytes } from './byte-budget-cache.ts';

/** A value whose entry, under a one-character key, is charged `charge` bytes in all. */
const charged = (charge: number) => ({ byteLength: charge - ENTRY_OVERHEAD_BYTES - 2 });
const KB = 1000;

describe('byte budget cache', () => {
  test('keeps what fits and evicts the oldest unused entries first', () => {
    const cache = new ByteBudgetCache<{ byteLength: number }>(100 * KB);
    cache.set('a', charged(40 * KB));
    cache.set('b', charged(40 * KB));
    cache.get('a'); // a was used, b was not
    cache.set('c', charged(40 * KB));
    assert.equal(cache.get('b'), undefined, 'the unused entry goes first');
    assert.ok(cache.get('a'));
    assert.ok(cache.get('c'));
    assert.equal(cache.memory().bytes, 80 * KB);
  });

  test('a used entry gets one second chance per use', () => {
    const cache = new ByteBudgetCache<{ byteLength: number }>(100 * KB);
    cache.set('a', charged(50 * KB));
    cache.get('a');
    cache.set('b', charged(50 * KB));
    cache.set('c', charged(50 * KB)); // a is older but was used: it is spared and b goes
    assert.equal(cache.get('b'), undefined);
    assert.ok(cache.get('a')); // used again
    cache.set('d', charged(50 * KB)); // c was never used: it goes, a stays
    assert.equal(cache.get('c'), undefined);
    assert.ok(cache.get('a'));
    assert.ok(cache.get('d'));
    assert.deepEqual(cache.memory(), { bytes: 100 * KB, budget: 100 * KB });
  });

  test('never holds more than its budget, and refuses a value larger than all of it', () => {
    const cache = new ByteBudgetCache<{ byteLength: number }>(100 * KB);
    for (let index = 0; index < 50; index += 1) {
      cache.set(`${index % 10}`, charged((7 + (index % 13)) * KB));
      cache.get(`${(index + 7) % 10}`);
      assert.ok(cache.memory().bytes <= 100 * KB, `${cache.memory().bytes} bytes after ${index}`);
    }
    cache.set('h', charged(101 * KB));
    assert.equal(cache.get('h'), undefined);
  });

  test('charges every entry its key and overhead, so that many empty values cannot exceed the budget', () => {
    const cache = new ByteBudgetCache<{ byteLength: number }>(100 * KB);
    const key = (index: number) => `/api/skin/head/x?size=100&junk=${index}`;
    for (let index = 0; index < 10_000; index += 1) cache.set(key(index), { byteLength: 0 });
    const perEntry = ENTRY_OVERHEAD_BYTES + 2 * key(9_999).length;
    assert.ok(cache.memory().bytes <= 100 * KB);
    assert.ok(cache.memory().bytes > 100 * KB - perEntry, 'the budget is used');
    assert.equal(cache.get(key(0)), undefined, 'the oldest went');
    assert.ok(cache.get(key(9_999)));
  });

  test('replacing a key counts only the new value', () => {
    const cache = new ByteBudgetCache<{ byteLength: number }>(100 * KB);
    cache.set('a', charged(60 * KB));
    cache.set('a', charged(30 * KB));
    assert.equal(cache.memory().bytes, 30 * KB);
    assert.equal(cache.hits + cache.misses, 0);
    cache.get('a');
    cache.get('missing');
    assert.deepEqual([cache.hits, cache.misses], [1, 1]);
    cache.clear();
    assert.equal(cache.get('a'), undefined);
    assert.equal(cache.memory().bytes, 0);
  });

  test('with a time to live, an expired entry answers nothing and is dropped', () => {
    let now = 0;
    const cache = new ByteBudgetCache<{ byteLength: number }>(100 * KB, { ttlMs: 2_000, now: () => now });
    cache.set('a', charged(10 * KB));
    cache.set('b', charged(10 * KB));
    cache.get('a');
    now = 1_999;
    assert.ok(cache.get('a'), 'still fresh');
    now = 2_000;
    assert.equal(cache.get('a'), undefined, 'expired on looking it up');
    assert.equal(cache.memory().bytes, 10 * KB, 'and dropped');
    cache.set('c', charged(10 * KB));
    assert.equal(cache.memory().bytes, 10 * KB, 'b expired too: dropped before the insertion though never looked up');
  });

  test('an expired entry gets no second chance, used or not', () => {
    let now = 0;
    const cache = new ByteBudgetCache<{ byteLength: number }>(100 * KB, { ttlMs: 2_000, now: () => now });
    cache.set('a', charged(40 * KB));
    cache.get('a');
    now = 1_000;
    cache.set('b', charged(40 * KB));
    now = 1_500;
    cache.set('c', charged(40 * KB)); // a was used: it moves behind c, b goes
    cache.get('a');
    cache.get('c');
    now = 2_500; // a has expired, though it sits behind c, which has not
    cache.set('d', charged(40 * KB)); // c was used: spared; a was used too, but has expired: it goes
    assert.equal(cache.get('a'), undefined);
    assert.ok(cache.get('c'));
    assert.ok(cache.get('d'));
  });
});

test("gives a cache a buffer that owns its bytes, not a slice that keeps Node's pool slab alive", () => {
  const slice = Buffer.from('a small PNG'); // from the shared pool
  assert.ok(slice.buffer.byteLength > slice.byteLength, 'the test needs a pooled slice');
  const owned = ownedBytes(slice);
  assert.deepEqual(owned, slice);
  assert.equal(owned.buffer.byteLength, owned.byteLength);
  const whole = Buffer.allocUnsafeSlow(100);
  assert.equal(ownedBytes(whole), whole, 'a buffer of its own is kept as it is');
});
