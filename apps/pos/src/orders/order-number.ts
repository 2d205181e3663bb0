import { randomBytes } from 'node:crypto';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** 10 characters of Crockford base32 from 50 random bits: the public reads need it, and it cannot be guessed in sequence. */
export function newOrderNumber(): string {
  const bits = randomBytes(8).readBigUInt64BE(0) >> 14n; // the top 50 of 64 random bits
  let number = '';
  for (let shift = 45n; shift >= 0n; shift -= 5n) number += CROCKFORD[Number((bits >> shift) & 31n)];
  return number;
}

/** What an order number looks like, checked before any lookup. */
export const ORDER_NUMBER = /^[0-9A-HJKMNP-TV-Z]{10}$/;
