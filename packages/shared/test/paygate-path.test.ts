import { describe, expect, it } from 'vitest';
import { comparablePath, coversMethod, coversPath, hasDotSegment, pricingResource } from '../src/index.js';

describe("the payment gate's path comparison", () => {
  it('folds the spellings a router serves as one path: escapes, case, repeated and trailing slashes', () => {
    for (const spelling of [
      '/weather/today',
      '/%77eather/today',
      '/WEATHER/Today',
      '/weather//today',
      '/weather/today/',
      '/w%65ather/t%6Fday',
    ])
      expect({ spelling, path: comparablePath(spelling) }).toEqual({ spelling, path: '/weather/today' });
    expect(comparablePath('/caf%C3%A9')).toBe(comparablePath('/café'));
    expect(comparablePath('/')).toBe('/');
  });

  it('keeps an escaped "/" inside its segment, and an escape that is not UTF-8 as it was', () => {
    expect(comparablePath('/weather%2Ftoday')).toBe('/weather%2ftoday');
    expect(comparablePath('/bad%FF')).toBe('/bad%ff');
  });

  it('covers a prefix and below, or one path, whatever the spelling', () => {
    expect(coversPath('/weather/*', '/Weather')).toBe(true);
    expect(coversPath('/weather/*', '/%77eather/lisbon')).toBe(true);
    expect(coversPath('/weather/*', '/weathering')).toBe(false);
    expect(coversPath('/weather/*', '/weather%2Ftoday')).toBe(false);
    expect(coversPath('/premium', '/PREMIUM/')).toBe(true);
    expect(coversPath('/premium', '/premium/x')).toBe(false);
    expect(coversPath('/*', '/anything/at/all')).toBe(true);
  });

  it('takes HEAD as GET, and "*" as any method', () => {
    expect(coversMethod('GET', 'HEAD')).toBe(true);
    expect(coversMethod('*', 'DELETE')).toBe(true);
    expect(coversMethod('POST', 'GET')).toBe(false);
  });

  it('finds a dot segment in any spelling, and a backslash', () => {
    for (const path of ['/weather/..', '/weather/.', '/a/%2e%2e/b', '/a/.%2E/b', '/a/%2e', '/a\\b'])
      expect({ path, dot: hasDotSegment(path) }).toEqual({ path, dot: true });
    for (const path of ['/weather/...', '/a.b/c..d', '/.well-known/x', '/a/%2e%2e%2fb'])
      expect({ path, dot: hasDotSegment(path) }).toEqual({ path, dot: false });
  });

  it('prices a request by the most specific resource covering it, then the newest', () => {
    const at = (seconds: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, seconds));
    const resources = [
      { id: 'all', method: '*', path: '/*', createdAt: at(0) },
      { id: 'weather', method: 'GET', path: '/weather/*', createdAt: at(1) },
      { id: 'weather-any', method: '*', path: '/weather/*', createdAt: at(2) },
      { id: 'premium', method: 'GET', path: '/weather/premium', createdAt: at(3) },
      { id: 'premium-again', method: 'GET', path: '/Weather/Premium/', createdAt: at(4) },
    ];
    const priced = (method: string, path: string) => pricingResource(resources, method, path)?.id;
    expect(priced('GET', '/weather/today')).toBe('weather');
    expect(priced('POST', '/weather/today')).toBe('weather-any');
    expect(priced('HEAD', '/%77eather/premium')).toBe('premium-again');
    expect(priced('DELETE', '/news')).toBe('all');
    expect(pricingResource([], 'GET', '/')).toBeUndefined();
  });
});
