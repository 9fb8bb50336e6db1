// GravitLauncher's hardware weighting (AuthSupportHardware.compareHardwareInfo), figure by figure.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { factsOf } from './hardware.ts';
import { boundedEditDistance, type HardwareFacts, MATCH_LEVEL, matchLevel, MAX_NEEDED_DISTANCE } from './hardware-match.ts';
import { HARDWARE_INFO_EXAMPLE } from './shapes.ts';

const machine: HardwareFacts = factsOf(HARDWARE_INFO_EXAMPLE);
const close = (actual: number, expected: number) => assert.ok(Math.abs(actual - expected) < 1e-9, `${actual} is not ${expected}`);

/** The full O(n·m) optimal-string-alignment distance, the reference the bounded one must agree with. */
function fullEditDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i += 1) {
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = best;
    }
  }
  return rows[a.length]![b.length]!;
}

/** A deterministic generator (mulberry32), so that a failing case can be run again. */
function randomSource(seed: number) {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('hardware match', () => {
  it('measures edits, a swap of neighbours counting one', () => {
    assert.equal(boundedEditDistance('kitten', 'sitting', 10), 3);
    assert.equal(boundedEditDistance('abcd', 'abdc', 10), 1);
    assert.equal(boundedEditDistance('', 'abc', 10), 3);
    assert.equal(boundedEditDistance('same', 'same', 10), 0);
    assert.equal(boundedEditDistance('kitten', 'sitting', 2), 3, 'past the limit: limit + 1');
  });

  it('agrees with the full distance wherever that is within the limit, and says "past it" otherwise', () => {
    const random = randomSource(20240611);
    const alphabet = 'abc';
    const text = (length: number) => Array.from({ length }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
    for (let round = 0; round < 3000; round += 1) {
      const a = text(Math.floor(random() * 14));
      // Often a few edits of a, so that small distances are common; else an unrelated string.
      let b = random() < 0.5 ? text(Math.floor(random() * 14)) : a;
      for (let edits = Math.floor(random() * 4); edits > 0 && b.length > 1; edits -= 1) {
        const at = Math.floor(random() * (b.length - 1));
        b = [
          () => b.slice(0, at) + b.slice(at + 1),
          () => b.slice(0, at) + b[at + 1] + b[at] + b.slice(at + 2),
          () => b.slice(0, at) + 'x' + b.slice(at),
        ][Math.floor(random() * 3)]!();
      }
      const limit = Math.floor(random() * 6);
      const full = fullEditDistance(a, b);
      assert.equal(boundedEditDistance(a, b, limit), full <= limit ? full : limit + 1, `${a} / ${b}, limit ${limit}`);
    }
  });

  it('costs linear time in the lengths compared: at most (length + 1) x (2 x limit + 1) cells', () => {
    const cellsFor = (length: number) => {
      const meter = { cells: 0 };
      boundedEditDistance('a'.repeat(length), 'b'.repeat(length), MAX_NEEDED_DISTANCE, meter);
      return meter.cells;
    };
    for (const length of [1_000, 8_000, 64_000]) assert.ok(cellsFor(length) <= (length + 1) * (2 * MAX_NEEDED_DISTANCE + 1));
    // Doubling the strings doubles the work (a full table would quadruple it).
    assert.ok(cellsFor(16_000) <= 2.01 * cellsFor(8_000));
    // The review's report: two 8,000-character disk ids with the same serial are weighed without a full table.
    const meter = { cells: 0 };
    boundedEditDistance('a'.repeat(8_000), 'b'.repeat(8_000), 2, meter);
    assert.ok(meter.cells <= 8_001 * 5);
  });

  it('weighs two long disk ids as before where the report limit allows them', () => {
    // 256 characters each: the largest distance that scores is 127, within the bound.
    const disk = 'x'.repeat(256);
    const changed = 'y'.repeat(100) + 'x'.repeat(156);
    close(matchLevel({ ...machine, hwDiskId: disk }, { ...machine, hwDiskId: changed }), 2.34 - 0.99 + 100 / 256);
  });

  it('weighs each identifier as GravitLauncher does', () => {
    // disk 0.99 + board 0.3 + display 0.75 + processors 0.05 + frequency 0.1 + memory 0.1 + memory within 32 KiB 0.05
    close(matchLevel(machine, { ...machine, graphicCard: 'another card' }), 2.34);
    close(matchLevel(machine, { ...machine, hwDiskId: 's4evnf0m812345' }), 2.34);
    close(matchLevel(machine, { ...machine, hwDiskId: 'S4EVNF0M812399' }), 2.2);
    close(matchLevel(machine, { ...machine, baseboardSerialNumber: 'PM1LB0A8J12' }), 2.19);
    close(matchLevel(machine, { ...machine, battery: true }), 2.29);
    const stranger = { ...machine, hwDiskId: 'WD-WCC4N1234567', baseboardSerialNumber: 'Default string', displayId: Buffer.from('other') };
    close(matchLevel(machine, stranger), 0.3);
    assert.ok(matchLevel(machine, stranger) < MATCH_LEVEL);
    // The same display and figures without any disk or board id still reach the level.
    const anonymous = { ...machine, hwDiskId: null, baseboardSerialNumber: null };
    close(matchLevel(machine, anonymous), 1.05);
  });
});
