// A map bounded by the bytes of its entries rather than their count: a 512-pixel render weighs a hundred times
// a 50-pixel one, and a hundred thousand small entries weigh something too. Each entry is charged its value's
// byteLength, its key and ENTRY_OVERHEAD_BYTES for the objects that hold it.
// Eviction is "second chance" (CLOCK), close to least-recently-used: a hit only sets a flag, where true LRU would
// delete and re-insert the key on every hit, the largest cost of a cached image request when profiled.
// With a time to live, an expired entry is dropped when it is looked up, and expired entries at the old end are
// dropped before every insertion, so they neither answer nor stay.

/**
 * What one entry costs beyond its value's bytes and its key: the map slot, the entry and value objects, and for
 * a Buffer value its object and backing-store record. Measured on Node 20 (heap and external memory after garbage
 * collection, 100,000 entries holding a render-sized Buffer and an ETag each): 380 to 450 bytes.
 */
export const ENTRY_OVERHEAD_BYTES = 512;

interface Entry<V> {
  value: V;
  charge: number;
  usedSinceInsert: boolean;
  expiresAt: number;
}

/**
 * `buffer`, or a copy of it that owns exactly its bytes, for keeping in a cache: a small Buffer is often a slice of
 * Node's shared allocation pool (64 KiB slabs since Node 24, 8 KiB before), and a cached slice keeps its whole slab
 * alive. Measured on Node 24 with 100,000 image URLs: renders of 1.5 KB kept 14 MiB of slabs beyond the caches'
 * 4 MiB budget (src/images/cache-memory.test.ts).
 */
export function ownedBytes(buffer: Buffer): Buffer {
  if (buffer.byteOffset === 0 && buffer.buffer.byteLength === buffer.byteLength) return buffer;
  const copy = Buffer.allocUnsafeSlow(buffer.byteLength);
  buffer.copy(copy);
  return copy;
}

/** What a cache holds against what it may hold, in bytes. */
export interface CacheMemory {
  bytes: number;
  budget: number;
}

export interface Expiry {
  ttlMs: number;
  now: () => number;
}

export class ByteBudgetCache<V extends { byteLength: number }> {
  private readonly entries = new Map<string, Entry<V>>();
  private bytes = 0;
  hits = 0;
  misses = 0;

  constructor(
    private readonly maxBytes: number,
    private readonly expiry?: Expiry,
  ) {}

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined || this.expired(entry, this.now())) {
      if (entry !== undefined) this.remove(key, entry);
      this.misses += 1;
      return undefined;
    }
    this.hits += 1;
    entry.usedSinceInsert = true;
    return entry.value;
  }

  set(key: string, value: V) {
    // Keys are charged two bytes a character: V8 keeps ASCII in one, but nothing here checks that a key is ASCII.
    const charge = value.byteLength + 2 * key.length + ENTRY_OVERHEAD_BYTES;
    const previous = this.entries.get(key);
    if (previous) this.remove(key, previous);
    if (charge > this.maxBytes) return;
    const now = this.now();
    for (const [oldestKey, oldest] of this.entries) {
      if (!this.expired(oldest, now)) break;
      this.remove(oldestKey, oldest);
    }
    this.entries.set(key, { value, charge, usedSinceInsert: false, expiresAt: this.expiry ? now + this.expiry.ttlMs : Infinity });
    this.bytes += charge;
    // The oldest entry goes, unless it was used since it was inserted (and has not expired): then it moves to the
    // young end, once. Every entry is passed over at most once per pass, so this ends.
    for (const [oldestKey, oldest] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(oldestKey);
      if (oldest.usedSinceInsert && !this.expired(oldest, now)) {
        oldest.usedSinceInsert = false;
        this.entries.set(oldestKey, oldest);
      } else {
        this.bytes -= oldest.charge;
      }
    }
  }

  clear() {
    this.entries.clear();
    this.bytes = 0;
  }

  /** The bytes charged for the entries held (never more than the budget), and the budget. */
  memory(): CacheMemory {
    return { bytes: this.bytes, budget: this.maxBytes };
  }

  private now() {
    return this.expiry ? this.expiry.now() : 0;
  }

  private expired(entry: Entry<V>, now: number) {
    return entry.expiresAt <= now;
  }

  private remove(key: string, entry: Entry<V>) {
    this.entries.delete(key);
    this.bytes -= entry.charge;
  }
}
