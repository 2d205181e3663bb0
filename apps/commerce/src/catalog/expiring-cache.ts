/**
 * Values kept for `ttlMs` by key; concurrent misses of one key share one load, and a failed load is
 * forgotten at once (the next caller tries again). At most `maxEntries` are kept (all dropped when full).
 */
export function expiringCache<V>(ttlMs: number, maxEntries = 10_000) {
  const entries = new Map<string, { value: Promise<V>; expiresAt: number }>();
  return {
    get(key: string, load: () => Promise<V>): Promise<V> {
      const now = Date.now();
      const hit = entries.get(key);
      if (hit && hit.expiresAt > now) return hit.value;
      const value = load();
      if (ttlMs > 0) {
        if (entries.size >= maxEntries) entries.clear();
        entries.set(key, { value, expiresAt: now + ttlMs });
        value.catch(() => {
          if (entries.get(key)?.value === value) entries.delete(key);
        });
      }
      return value;
    },
  };
}
