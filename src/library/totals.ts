// The totals of the public library's filters (X-Total-Count), remembered for a few seconds: counting 100,000 entries
// costs milliseconds on every page otherwise, while the page itself reads 48 rows along an index (docs/performance.md,
// "Skin library"). The service clears them after each change it makes; a change made elsewhere (a moderator's
// action, a block, a deleted account, another instance) shows in the totals within TOTALS_TTL_MS.
export const TOTALS_TTL_MS = 5_000;
/** Filters remembered at most (q is free text: a bound on the memory it can take). */
const MAX_FILTERS = 1_000;

export class RecentTotals {
  private readonly totals = new Map<string, { total: number; at: number }>();

  get(key: string, now: number): number | undefined {
    const known = this.totals.get(key);
    return known && now - known.at < TOTALS_TTL_MS ? known.total : undefined;
  }

  /** Remembers `total` for `key` and returns it. */
  set(key: string, now: number, total: number): number {
    this.totals.delete(key);
    if (this.totals.size >= MAX_FILTERS) this.totals.delete(this.totals.keys().next().value!);
    this.totals.set(key, { total, at: now });
    return total;
  }

  clear() {
    this.totals.clear();
  }
}
