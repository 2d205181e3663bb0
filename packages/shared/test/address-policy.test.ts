import { describe, expect, it } from 'vitest';
import { classifyAddress, isAllowedAddress, isPublicAddress } from '../src/net/address-policy.js';

describe('isPublicAddress', () => {
  it.each(['8.8.8.8', '1.1.1.1', '93.184.215.14', '2606:4700:4700::1111', '[2a00:1450:4001::200e]', '::ffff:8.8.8.8'])(
    'accepts the public unicast address %s',
    (address) => expect(isPublicAddress(address)).toBe(true),
  );

  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.1.2.3', 'loopback'],
    ['::1', 'IPv6 loopback'],
    ['[::1]', 'bracketed IPv6 loopback'],
    ['0.0.0.0', 'unspecified (reaches this host)'],
    ['::', 'IPv6 unspecified'],
    ['169.254.169.254', 'link-local: the cloud metadata service'],
    ['fe80::1', 'IPv6 link-local'],
    ['fe80::1%eth0', 'IPv6 link-local with a zone'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['100.100.100.200', 'a cloud metadata service in carrier-grade NAT space'],
    ['fc00::1', 'IPv6 unique local'],
    ['fd00:ec2::254', "AWS's IPv6 metadata service"],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['::ffff:7f00:1', 'IPv4-mapped loopback, hex spelling'],
    ['::ffff:10.0.0.1', 'IPv4-mapped private'],
    ['::ffff:169.254.169.254', 'IPv4-mapped link-local'],
    ['::ffff:0:7f00:1', 'IPv4-translated loopback (RFC 6145)'],
    ['::7f00:1', 'IPv4-compatible loopback (outside 2000::/3)'],
    ['64:ff9b::a00:1', 'NAT64 embedding a private address'],
    ['2002:a00:1::1', '6to4 embedding a private address'],
    ['2001::1', 'Teredo'],
    ['2001:db8::1', 'documentation'],
    ['224.0.0.1', 'multicast'],
    ['ff02::1', 'IPv6 multicast'],
    ['255.255.255.255', 'broadcast'],
    ['240.0.0.1', 'reserved'],
    ['192.0.2.1', 'documentation (TEST-NET-1)'],
    ['2130706433', 'a decimal spelling, not an address until a URL parser reads it'],
    ['0x7f.1', 'a hex spelling'],
    ['010.0.0.1', 'an octal spelling'],
    ['localhost', 'a name'],
    ['', 'nothing'],
  ])('refuses %s (%s)', (address) => expect(isPublicAddress(address)).toBe(false));
});

describe('classifyAddress and the operator allowance', () => {
  it.each(['127.0.0.1', '::1', '10.0.0.1', '172.31.255.255', '192.168.1.1', '100.64.0.1', 'fc00::1', 'fd12:3456::1', '::ffff:127.0.0.1'])(
    'lets %s through only when private peers are allowed',
    (address) => {
      expect(classifyAddress(address).verdict).toBe('private');
      expect(isAllowedAddress(classifyAddress(address).verdict, false)).toBe(false);
      expect(isAllowedAddress(classifyAddress(address).verdict, true)).toBe(true);
    },
  );

  it.each([
    '169.254.169.254',
    'fe80::1',
    '0.0.0.0',
    '::',
    '255.255.255.255',
    '224.0.0.1',
    '100.100.100.200',
    'fd00:ec2::254',
    '::ffff:169.254.169.254',
  ])('never lets %s through, not even when private peers are allowed', (address) => {
    expect(classifyAddress(address).verdict).toBe('never');
    expect(isAllowedAddress('never', true)).toBe(false);
  });

  it('names the range, and the inner one of an IPv4-mapped address', () => {
    expect(classifyAddress('169.254.169.254').range).toBe('linkLocal');
    expect(classifyAddress('::ffff:10.0.0.1').range).toBe('IPv4-mapped private');
  });
});
