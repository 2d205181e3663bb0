import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { classifyAddress, isAllowedAddress } from '@ctk/shared';
import { untilAborted } from './deadline.js';
import { addressRefused, errorCode, peerUnavailable } from './peer-errors.js';
import { bareHostname } from './peer-url.js';

/** One address a host resolves to, as node:dns gives it. */
export type ResolvedAddress = { address: string; family: number };

/** Resolves a host name to all its addresses. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

/** The system's resolver: every address, as getaddrinfo orders them. */
export const systemResolver: Resolver = (hostname) => lookup(hostname, { all: true });

/** What checking a hop's host needs. */
export type HostCheck = { field: string; allowPrivate: boolean; resolver: Resolver; signal: AbortSignal; redirectedFrom?: URL };

/**
 * The addresses to connect to for the URL's host, resolved once and every one allowed; refuses the host if ANY
 * address is not (an attacker's DNS may mix a public address with a private one). An IP literal is its own address.
 */
export async function checkedAddresses(url: URL, check: HostCheck): Promise<ResolvedAddress[]> {
  const host = bareHostname(url);
  const literal = isIP(host) !== 0;
  const addresses = literal ? [{ address: host, family: isIP(host) }] : await resolve(url, host, check);
  const refused = addresses.map((a) => classifyAddress(a.address)).filter((c) => !isAllowedAddress(c.verdict, check.allowPrivate));
  const worst = refused.find((c) => c.verdict === 'never') ?? refused[0];
  if (worst) throw addressRefused(check.field, url, literal, worst, check.redirectedFrom);
  return addresses;
}

async function resolve(url: URL, host: string, check: HostCheck): Promise<ResolvedAddress[]> {
  let addresses: ResolvedAddress[];
  try {
    addresses = await untilAborted(check.resolver(host), check.signal);
  } catch (error) {
    if (check.signal.aborted) throw check.signal.reason;
    throw peerUnavailable(url, `could not be resolved (${errorCode(error)})`);
  }
  if (addresses.length === 0) throw peerUnavailable(url, 'could not be resolved (no address)');
  return addresses;
}
