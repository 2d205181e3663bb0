import { createHmac, timingSafeEqual } from 'node:crypto';

/** What pos signs of a link: everything that decides what its payer pays, and to whom. */
export type SignedTerms = {
  id: string;
  organizationId: string;
  merchantHandle: string;
  currency: string;
  amountMinor: bigint;
  minMinor: bigint;
  maxMinor: bigint;
  memo: string;
  maxUses: bigint;
  expiresAt: Date | null;
};

// Bumped if the signed fields ever change, so that an old signature cannot be read as a new one's.
const VERSION = 'ctk.pos.pay_link.v1';

/** The terms as one unambiguous string: a JSON array, field order fixed, amounts as decimal strings. */
function canonical(terms: SignedTerms): string {
  return JSON.stringify([
    VERSION,
    terms.id,
    terms.organizationId,
    terms.merchantHandle,
    terms.currency,
    terms.amountMinor.toString(),
    terms.minMinor.toString(),
    terms.maxMinor.toString(),
    terms.memo,
    terms.maxUses.toString(),
    terms.expiresAt ? terms.expiresAt.toISOString() : '',
  ]);
}

/** HMAC-SHA256 of the terms under pos's pay-link key, hex. */
export function signTerms(key: Buffer, terms: SignedTerms): string {
  return createHmac('sha256', key).update(canonical(terms)).digest('hex');
}

/** Whether `signature` is the key's signature of these terms (compared in constant time). */
export function termsAreSigned(key: Buffer, terms: SignedTerms, signature: string): boolean {
  const expected = Buffer.from(signTerms(key, terms), 'hex');
  const given = /^[0-9a-f]{64}$/.test(signature) ? Buffer.from(signature, 'hex') : Buffer.alloc(0);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
