import type { Clock } from '../../src/clock.ts';

/** A clock that moves only when the test says so. */
export class ManualClock implements Clock {
  constructor(private current = Date.UTC(2026, 10, 22, 12, 0, 0)) {}
  now() {
    return this.current;
  }
  advance(ms: number) {
    this.current += ms;
  }
}
