import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ByteBudgetCache } from './byte-budget-cache.ts';

const sized = (byteLength: number) => ({ byteLength });

describe('byte budget cache', () => {
  test('keeps what fits and evicts the oldest unused entries first', () => {
    const cache = new ByteBudgetCache<{ byteLength: number }>(100);
    cache.set('a', sized(40));
    cache.set('b', sized(40));
    cache.get('a'); // a was used, b was not
    cache.set('c', sized(40));
    assert.equal(cache.get('b'), undefined, 'the unused entry goes first');
    assert.ok(cache.get('a'));
    assert.ok(cache.get('c'));
    assert.equal(cache.size, 80);
  });

  test('a used entry gets one second chance per use', () => {
    const cache = new ByteBudgetCache<{ byteLength: number }>(100);
    cache.set('a', sized(50));
    cache.get('a');
    cache.set('b', sized(50));
    cache.set('c', sized(50)); // a is older but was used: it is spared and b goes
    assert.equal(cache.get('b'), undefined);
    assert.ok(cache.get('a')); // used again
    cache.set('d', sized(50)); // c was never used: it goes, a stays
    assert.equal(cache.get('c'), undefined);
    assert.ok(cache.get('a'));
    assert.ok(cache.get('d'));
    assert.equal(cache.size, 100);
  });

  test('never holds more than its budget, and refuses a value larger than all of it', () => {
    const cache = new ByteBudgetCache<{ byteLength: number }>(100);
    for (let index = 0; index < 50; index += 1) {
      cache.set(`k${index}`, sized(7 + (index % 13)));
      cache.get(`k${index - 3}`);
      assert.ok(cache.size <= 100, `size ${cache.size} after ${index}`);
    }
    cache.set('huge', sized(101));
    assert.equal(cache.get('huge'), undefined);
  });

  test('replacing a key counts only the new value', () => {
    const cache = new ByteBudgetCache<{ byteLength: number }>(100);
    cache.set('a', sized(60));
    cache.set('a', sized(30));
    assert.equal(cache.size, 30);
    assert.equal(cache.hits + cache.misses, 0);
    cache.get('a');
    cache.get('missing');
    assert.deepEqual([cache.hits, cache.misses], [1, 1]);
  });
});
