import { describe, expect, it } from 'vitest';
import { expiringCache } from './expiring-cache.js';

describe('expiringCache', () => {
  it('shares one load among concurrent misses and keeps the value for its time', async () => {
    const cache = expiringCache<number>(60_000);
    let loads = 0;
    const load = async () => ++loads;
    expect(await Promise.all([cache.get('a', load), cache.get('a', load), cache.get('a', load)])).toEqual([1, 1, 1]);
    expect(await cache.get('a', load)).toBe(1);
    expect(await cache.get('b', load)).toBe(2);
  });

  it('forgets a failed load at once, and keeps nothing with a time of 0', async () => {
    const cache = expiringCache<number>(60_000);
    await expect(cache.get('a', () => Promise.reject(new Error('pos down')))).rejects.toThrow('pos down');
    expect(await cache.get('a', async () => 7)).toBe(7);
    const uncached = expiringCache<number>(0);
    let loads = 0;
    await uncached.get('a', async () => ++loads);
    expect(await uncached.get('a', async () => ++loads)).toBe(2);
  });
});
