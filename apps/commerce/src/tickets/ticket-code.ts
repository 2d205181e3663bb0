import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * A ticket's code: 20 characters of Crockford base32 from 100 random bits. It is the ticket (its QR
 * shows it, staff check it in), so it cannot be guessed; base32 so that it can be read out and typed.
 */
export function newTicketCode(): string {
  const bytes = randomBytes(20);
  let code = '';
  for (const byte of bytes) code += ALPHABET[byte & 31];
  return code;
}

/** What a ticket code looks like, checked before any lookup. */
export const TICKET_CODE = /^[0-9A-HJKMNP-TV-Z]{20}$/;
