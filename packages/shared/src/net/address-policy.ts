import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * How an outgoing request (a federation peer, a site's S3 store) treats the address it connects to:
 * - `public`: a globally routable unicast address; always allowed.
 * - `private`: private (10/8, 172.16/12, 192.168/16), loopback, carrier-grade NAT (100.64/10) or IPv6 unique local
 *   (fc00::/7); refused unless the operator allows private addresses (FEDERATION_ALLOW_PRIVATE_PEERS, COMMERCE_SITE_ALLOW_PRIVATE_STORES).
 * - `never`: refused even then: link-local (169.254/16, fe80::/10, where cloud metadata services live), known cloud
 *   metadata addresses, unspecified, broadcast, multicast, reserved and documentation ranges, translation and
 *   tunnelling prefixes (NAT64, 6to4, Teredo), IPv6 outside 2000::/3, and anything that is not a plain IP address.
 */
export type AddressVerdict = 'public' | 'private' | 'never';

/** An address's verdict and the ipaddr.js range name behind it (for messages). */
export type AddressClass = { verdict: AddressVerdict; range: string };

/** Ranges the operator's allowance lets through. */
const ALLOWABLE_RANGES = new Set(['private', 'loopback', 'carrierGradeNat', 'uniqueLocal']);

/** Cloud metadata endpoints outside link-local (Alibaba Cloud in 100.64/10, AWS's IPv6 one in fc00::/7). */
const METADATA_ADDRESSES = new Set(['100.100.100.200', 'fd00:ec2::254']);

/** IANA's global unicast space for IPv6: anything public lies within it. */
const IPV6_GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3');

/**
 * Classifies an IP address (v4 in dotted decimal, or v6, with or without brackets or a zone). An IPv4-mapped IPv6
 * address is classified by the IPv4 address inside it. Anything not an address (a name, `2130706433`) is `never`.
 */
export function classifyAddress(address: string): AddressClass {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  if (isIP(bare) === 0) return { verdict: 'never', range: 'not an IP address' };
  const parsed = ipaddr.parse(bare);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    const inner = classifyAddress((parsed as ipaddr.IPv6).toIPv4Address().toString());
    return { verdict: inner.verdict, range: `IPv4-mapped ${inner.range}` };
  }
  const range = parsed.range();
  if (range === 'unicast') {
    const global = parsed.kind() === 'ipv4' || (parsed as ipaddr.IPv6).match(IPV6_GLOBAL_UNICAST);
    return global ? { verdict: 'public', range } : { verdict: 'never', range: 'reserved' };
  }
  if (METADATA_ADDRESSES.has(normalised(parsed))) return { verdict: 'never', range: 'cloud metadata' };
  return { verdict: ALLOWABLE_RANGES.has(range) ? 'private' : 'never', range };
}

/** Whether an IP address (v4 or v6, including IPv4-mapped IPv6) is a public unicast address. */
export function isPublicAddress(address: string): boolean {
  return classifyAddress(address).verdict === 'public';
}

/** Whether a request may connect to an address, given the operator's allowance for private ones. */
export function isAllowedAddress(verdict: AddressVerdict, allowPrivate: boolean): boolean {
  return verdict === 'public' || (verdict === 'private' && allowPrivate);
}

function normalised(address: ipaddr.IPv4 | ipaddr.IPv6): string {
  return address.kind() === 'ipv6' ? (address as ipaddr.IPv6).toRFC5952String() : address.toString();
}
