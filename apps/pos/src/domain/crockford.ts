import { randomBytes } from 'node:crypto';

export const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** `length` characters of Crockford base32, each 5 random bits. */
export function randomCrockford(length: number): string {
  const bytes = randomBytes(length);
  let text = '';
  for (const byte of bytes) text += CROCKFORD[byte & 31];
  return text;
}
