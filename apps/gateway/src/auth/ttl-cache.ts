/**
 * A small map whose entries expire; `clear()` on any change of identity data keeps it honest.
 * Misses (null) are not kept, so something created on another instance is seen at once.
 */
export class TtlCache<V> {
  private readonly entries = new Map<string, { value: V; expiresAt: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  async get(key: string, load: () => Promise<V>): Promise<V> {
    const hit = this.entries.get(key);
    const now = Date.now();
    if (hit && hit.expiresAt > now) return hit.value;
    const value = await load();
    if (this.ttlMs > 0 && value !== null) {
      if (this.entries.size >= this.maxEntries) this.entries.clear();
      this.entries.set(key, { value, expiresAt: now + this.ttlMs });
    }
    return value;
  }

  clear(): void {
    this.entries.clear();
  }
}
