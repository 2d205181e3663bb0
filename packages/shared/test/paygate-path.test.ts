import { describe, expect, it } from 'vitest';
import { comparablePath, coversMethod, coversPath, hasDotSegment } from '../src/index.js';

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
});
