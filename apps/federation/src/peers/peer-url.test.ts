import { describe, expect, it } from 'vitest';
import { describeUrl, peerUrlProblem } from './peer-url.js';

describe('peerUrlProblem', () => {
  it.each(['http://peer.example/', 'https://peer.example:8443/feed?since=1', 'http://127.0.0.1:4001'])('has none for %s', (url) =>
    expect(peerUrlProblem(url)).toBeNull(),
  );

  it.each([
    ['file:///etc/passwd', /http: or https:, not file:/],
    ['ftp://peer.example/feed', /http: or https:, not ftp:/],
    ['gopher://peer.example/', /not gopher:/],
    ['javascript:alert(1)', /not javascript:/],
    ['http://user:pass@peer.example/', /credentials/],
    ['http://user@peer.example/', /credentials/],
    ['https://:secret@peer.example/', /credentials/],
    ['not a url', /absolute URL/],
    ['/feed', /absolute URL/],
    ['http://', /absolute URL/],
  ])('refuses %s', (url, problem) => expect(peerUrlProblem(url)).toMatch(problem));

  it('accepts 2048 characters and refuses 2049', () => {
    const base = 'https://peer.example/';
    expect(peerUrlProblem(base + 'a'.repeat(2048 - base.length))).toBeNull();
    expect(peerUrlProblem(base + 'a'.repeat(2049 - base.length))).toMatch(/at most 2048 characters \(this one has 2049\)/);
  });
});

describe('URL parsing of IP spellings (what peerFetch then checks as an address)', () => {
  it.each([
    ['http://2130706433/', '127.0.0.1'],
    ['http://0x7f.1/', '127.0.0.1'],
    ['http://0177.0.0.1/', '127.0.0.1'],
    ['http://127.1/', '127.0.0.1'],
    ['http://0/', '0.0.0.0'],
    ['http://[::ffff:127.0.0.1]/', '[::ffff:7f00:1]'],
    ['http://[::1]/', '[::1]'],
    ['http://0xa9.0xfe.0xa9.0xfe/', '169.254.169.254'],
  ])('new URL(%s) has the host %s', (url, hostname) => expect(new URL(url).hostname).toBe(hostname));
});

describe('describeUrl', () => {
  it('leaves credentials out of messages', () => {
    expect(describeUrl('http://user:hunter2@peer.example/x')).toBe('http://peer.example/x');
  });

  it('cuts a long URL short', () => {
    expect(describeUrl(`https://peer.example/${'a'.repeat(500)}`)).toHaveLength(201);
  });
});
