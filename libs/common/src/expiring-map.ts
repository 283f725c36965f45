/** A bounded in-memory map whose entries expire `ttlMs` after they were set (ttlMs 0: keeps nothing). */
export class ExpiringMap<V> {
  private readonly entries = new Map<string, { value: V; expiresAt: number }>();
  /** Loads in flight, shared by every caller that misses the same key meanwhile. */
  private readonly loading = new Map<string, Promise<V | null>>();

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

  /**
   * The cached value, or `load()`'s when it is not null (null and undefined are not kept). Callers that
   * miss a key while it is being loaded wait for that load instead of starting their own.
   */
  getOrLoad(key: string, load: () => Promise<V | null>): Promise<V | null> {
    const hit = this.get(key);
    if (hit !== undefined) return Promise.resolve(hit);
    let pending = this.loading.get(key);
    if (!pending) {
      pending = load()
        .then((value) => {
          if (value !== null && value !== undefined) this.set(key, value);
          return value;
        })
        .finally(() => this.loading.delete(key));
      this.loading.set(key, pending);
    }
    return pending;
  }
}
