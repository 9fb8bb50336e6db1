// GravitLauncher's hardware weighting (AuthSupportHardware.compareHardwareInfo), figure by figure.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { factsOf } from './hardware.ts';
import { editDistance, type HardwareFacts, MATCH_LEVEL, matchLevel } from './hardware-match.ts';
import { HARDWARE_INFO_EXAMPLE } from './shapes.ts';

const machine: HardwareFacts = factsOf(HARDWARE_INFO_EXAMPLE);
const close = (actual: number, expected: number) => assert.ok(Math.abs(actual - expected) < 1e-9, `${actual} is not ${expected}`);

describe('hardware match', () => {
  it('measures edits, a swap of neighbours counting one', () => {
    assert.equal(editDistance('kitten', 'sitting'), 3);
    assert.equal(editDistance('abcd', 'abdc'), 1);
    assert.equal(editDistance('', 'abc'), 3);
    assert.equal(editDistance('same', 'same'), 0);
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
