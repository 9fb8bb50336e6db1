// A least-recently-used map bounded by the bytes of its values rather than their count:
// a 512-pixel render weighs a hundred times a 50-pixel one.
export class ByteBudgetCache<V extends { byteLength: number }> {
  private readonly entries = new Map<string, V>();
  private bytes = 0;
  hits = 0;
  misses = 0;

  constructor(private readonly maxBytes: number) {}

  get(key: string): V | undefined {
    const value = this.entries.get(key);
    if (value === undefined) {
      this.misses += 1;
      return undefined;
    }
    this.hits += 1;
    // Re-inserting moves the entry to the young end of the Map's insertion order.
    this.entries.delete(key);
    this.entries.set(key, value);
    return value;
  }

  set(key: string, value: V) {
    if (value.byteLength > this.maxBytes) return;
    const previous = this.entries.get(key);
    if (previous) {
      this.bytes -= previous.byteLength;
      this.entries.delete(key);
    }
    this.entries.set(key, value);
    this.bytes += value.byteLength;
    for (const [oldestKey, oldest] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(oldestKey);
      this.bytes -= oldest.byteLength;
    }
  }

  get size() {
    return this.bytes;
  }
}
