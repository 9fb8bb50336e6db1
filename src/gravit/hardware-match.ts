// Whether two hardware reports are the same machine: GravitLauncher's own weighting (AuthSupportHardware
// .compareHardwareInfo in the LaunchServer), so that a LaunchServer finds the same hardware record through this
// service as through its sql core. Each identifier that agrees adds to the level; MATCH_LEVEL or more is a match.
import type { HardwareInfo } from './shapes.ts';

/**
 * What a launcher reports of its machine (GravitLauncher's HardwareReportRequest.HardwareInfo), the display id
 * decoded, and blank identifiers null (a blank id tells nothing apart).
 */
export type HardwareFacts = Omit<HardwareInfo, 'displayId'> & { displayId: Buffer | null };

/** The sql core's default criticalCompareLevel. */
export const MATCH_LEVEL = 1.0;

/**
 * The largest edit distance matchLevel needs exactly. A disk id adds to the level only below max(3, trunc(lengths /
 * 4)), so two ids of at most 256 characters each (the API's limit) never need more than 127; the cap keeps a
 * comparison linear also for longer ids the LaunchServer's sql core may have stored (where distances past it add
 * nothing, unlike GravitLauncher's own rule).
 */
export const MAX_NEEDED_DISTANCE = 128;

/** How much two reports agree (compareHardwareInfo's compareLevel). */
export function matchLevel(first: HardwareFacts, second: HardwareFacts): number {
  let level = 0;
  if (first.hwDiskId !== null && second.hwDiskId !== null) {
    const lengths = first.hwDiskId.length + second.hwDiskId.length;
    const scored = Math.trunc(lengths / 4);
    const limit = Math.min(Math.max(2, scored - 1), MAX_NEEDED_DISTANCE);
    const distance = boundedEditDistance(first.hwDiskId.toLowerCase(), second.hwDiskId.toLowerCase(), limit);
    if (distance === 0) level += 0.99;
    else if (distance < 3) level += 0.85;
    // GravitLauncher's rule as it stands, also where a larger distance adds more (always less than 0.5).
    else if (distance <= limit && distance < scored) level += distance / (lengths / 2);
  }
  if (first.baseboardSerialNumber !== null && second.baseboardSerialNumber !== null) {
    const distance = boundedEditDistance(first.baseboardSerialNumber.toLowerCase(), second.baseboardSerialNumber.toLowerCase(), 2);
    if (distance === 0) level += 0.3;
    else if (distance < 3) level += 0.15;
  }
  if (first.displayId !== null && second.displayId !== null && first.displayId.equals(second.displayId)) level += 0.75;
  if (first.physicalProcessors === second.physicalProcessors && first.logicalProcessors === second.logicalProcessors) level += 0.05;
  if (first.battery !== second.battery) level -= 0.05;
  if (first.processorMaxFreq === second.processorMaxFreq) level += 0.1;
  if (first.totalMemory === second.totalMemory) level += 0.1;
  if (Math.abs(first.totalMemory - second.totalMemory) < 32 * 1024) level += 0.05;
  return level;
}

/**
 * Damerau-Levenshtein distance in its optimal-string-alignment form (insertions, deletions, substitutions and
 * transpositions of neighbours each cost one) when it is at most `limit`, else `limit + 1`. Only the cells within
 * `limit` of the diagonal are computed (any alignment leaving that band costs more), so the cost is at most
 * (a.length + 1) * (2 * limit + 1) cells; `meter`, when given, counts them.
 */
export function boundedEditDistance(a: string, b: string, limit: number, meter?: { cells: number }): number {
  const beyond = limit + 1;
  if (Math.abs(a.length - b.length) > limit) return beyond;
  // Three rows, reused in turn; a cell outside the band reads as `beyond`.
  let before = new Array<number>(b.length + 1).fill(beyond);
  let previous = Array.from({ length: b.length + 1 }, (_, j) => (j <= limit ? j : beyond));
  let current = new Array<number>(b.length + 1).fill(beyond);
  for (let i = 1; i <= a.length; i += 1) {
    const from = Math.max(1, i - limit);
    const to = Math.min(b.length, i + limit);
    current[from - 1] = from === 1 && i <= limit ? i : beyond;
    if (to < b.length) current[to + 1] = beyond;
    for (let j = from; j <= to; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, before[j - 2]! + 1);
      current[j] = Math.min(best, beyond);
      if (meter) meter.cells += 1;
    }
    [before, previous, current] = [previous, current, before];
  }
  return Math.min(previous[b.length]!, beyond);
}
