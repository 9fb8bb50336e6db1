// A map bounded by the bytes of its values rather than their count: a 512-pixel render weighs a hundred times
// a 50-pixel one. Eviction is "second chance" (CLOCK), close to least-recently-used: a hit only sets a flag,
// where true LRU would delete and re-insert the key on every hit, the largest cost of a cached image request
// when profiled.
interface Entry<V> {
  value: V;
  usedSinceInsert: boolean;
}

export class ByteBudgetCache<V extends { byteLength: number }> {
  private readonly entries = new Map<string, Entry<V>>();
  private bytes = 0;
  hits = 0;
  misses = 0;

  constructor(private readonly maxBytes: number) {}

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) {
      this.misses += 1;
      return undefined;
    }
    this.hits += 1;
    entry.usedSinceInsert = true;
    return entry.value;
  }

  set(key: string, value: V) {
    if (value.byteLength > this.maxBytes) return;
    const previous = this.entries.get(key);
    if (previous) {
      this.bytes -= previous.value.byteLength;
      this.entries.delete(key);
    }
    this.entries.set(key, { value, usedSinceInsert: false });
    this.bytes += value.byteLength;
    // The oldest entry goes, unless it was used since it was inserted: then it moves to the young end, once.
    // Every entry is passed over at most once per pass, so this ends.
    for (const [oldestKey, oldest] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(oldestKey);
      if (oldest.usedSinceInsert) {
        oldest.usedSinceInsert = false;
        this.entries.set(oldestKey, oldest);
      } else {
        this.bytes -= oldest.value.byteLength;
      }
    }
  }

  get size() {
    return this.bytes;
  }
}
