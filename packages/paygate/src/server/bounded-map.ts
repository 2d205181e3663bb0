/**
 * A Map that keeps at most `limit` entries, dropping the least recently used: `get` moves an entry to the
 * newest end (a Map iterates in insertion order, so the oldest is always the first key).
 */
export class BoundedMap<K, V> {
  private readonly entries = new Map<K, V>();

  constructor(private readonly limit: number) {}

  get size(): number {
    return this.entries.size;
  }

  get(key: K): V | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  set(key: K, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.limit) this.entries.delete(this.entries.keys().next().value as K);
  }

  delete(key: K): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }

  /** Drops every entry `stale` names (the refresh timer uses it to forget expired credentials). */
  prune(stale: (value: V) => boolean): void {
    for (const [key, value] of this.entries) if (stale(value)) this.entries.delete(key);
  }
}
