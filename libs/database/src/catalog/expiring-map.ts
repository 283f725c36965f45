/** A bounded in-memory map whose entries expire `ttlMs` after they were set (ttlMs 0: keeps nothing). */
export class ExpiringMap<V> {
  private readonly entries = new Map<string, { value: V; expiresAt: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt > this.now()) return entry.value;
    this.entries.delete(key);
    return undefined;
  }

  set(key: string, value: V): void {
    if (this.ttlMs <= 0) return;
    if (this.entries.size >= this.maxEntries) this.entries.clear(); // crude but bounded; a full refill costs one query per key
    this.entries.set(key, { value, expiresAt: this.now() + this.ttlMs });
  }

  /** The cached value, or `load()`'s when it is not null (null and undefined are not kept). */
  async getOrLoad(key: string, load: () => Promise<V | null>): Promise<V | null> {
    const hit = this.get(key);
    if (hit !== undefined) return hit;
    const value = await load();
    if (value !== null && value !== undefined) this.set(key, value);
    return value;
  }
}
