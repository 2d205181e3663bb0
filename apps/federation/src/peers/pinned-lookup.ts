import type { LookupFunction } from 'node:net';
import type { ResolvedAddress } from './resolve-peer-host.js';

/**
 * A `lookup` for node:http that answers only the addresses already resolved and checked, so the connection goes to a
 * checked address: a DNS answer that changes between the check and the connect (rebinding) is never asked for.
 */
export function pinnedLookup(addresses: ResolvedAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    const family = options.family === 4 || options.family === 6 ? options.family : 0;
    const usable = family === 0 ? addresses : addresses.filter((a) => a.family === family);
    const first = usable[0];
    if (first === undefined) {
      const error: NodeJS.ErrnoException = new Error(`no checked IPv${family} address`);
      error.code = 'ENOTFOUND';
      callback(error, '', 0);
    } else if (options.all) callback(null, usable);
    else callback(null, first.address, first.family);
  };
}
