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

/** How much two reports agree (compareHardwareInfo's compareLevel). */
export function matchLevel(first: HardwareFacts, second: HardwareFacts): number {
  let level = 0;
  if (first.hwDiskId !== null && second.hwDiskId !== null) {
    const distance = editDistance(first.hwDiskId.toLowerCase(), second.hwDiskId.toLowerCase());
    const lengths = first.hwDiskId.length + second.hwDiskId.length;
    if (distance === 0) level += 0.99;
    else if (distance < 3) level += 0.85;
    // GravitLauncher's rule as it stands, also where a larger distance adds more (always less than 0.5).
    else if (distance < Math.trunc(lengths / 4)) level += distance / (lengths / 2);
  }
  if (first.baseboardSerialNumber !== null && second.baseboardSerialNumber !== null) {
    const distance = editDistance(first.baseboardSerialNumber.toLowerCase(), second.baseboardSerialNumber.toLowerCase());
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
 * Damerau-Levenshtein distance in its optimal-string-alignment form: insertions, deletions, substitutions and
 * transpositions of neighbours each cost one.
 */
export function editDistance(a: string, b: string): number {
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
