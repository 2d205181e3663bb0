import { lookup as dnsLookup } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { classifyAddress, isAllowedAddress, type AddressClass } from './address-policy.js';

/** Why a connection was not made: the address a name resolved to is not one the operator lets requests reach. */
export class AddressNotAllowed extends Error {
  readonly code = 'EADDRNOTALLOWED';
  constructor(
    readonly hostname: string,
    readonly address: AddressClass,
  ) {
    super(`${hostname} resolves to a ${address.range} address, which is not public`);
    this.name = 'AddressNotAllowed';
  }
}

/**
 * A `lookup` for node:net, node:http and node:https agents that resolves a name and refuses it when ANY of its
 * addresses is not allowed (address-policy.ts), so the connection goes only to an address just checked: no
 * window for a DNS answer to change between check and connect. An IP literal is never looked up by Node:
 * check it with {@link literalAddressProblem} before connecting.
 */
export function checkedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      const refused = addresses.map((a) => classifyAddress(a.address)).filter((c) => !isAllowedAddress(c.verdict, allowPrivate));
      const worst = refused.find((c) => c.verdict === 'never') ?? refused[0];
      if (worst) return callback(new AddressNotAllowed(hostname, worst), '', 0);
      const first = addresses[0];
      if (options.all) callback(null, addresses);
      else if (first) callback(null, first.address, first.family);
      else callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '', 0);
    });
  };
}

/** The range of a host that is an IP literal the policy does not allow, else null (names are checked on lookup). */
export function literalAddressProblem(hostname: string, allowPrivate: boolean): AddressClass | null {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  if (isIP(bare) === 0) return null;
  const address = classifyAddress(bare);
  return isAllowedAddress(address.verdict, allowPrivate) ? null : address;
}
