import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signTerms, termsAreSigned, type SignedTerms } from '../src/pay-links/pay-link-terms.js';

const terms: SignedTerms = {
  id: '3b0f6f0e-2a53-4a55-9a43-1e1f7f0c9d21',
  organizationId: '8f14e45f-ceea-467a-9575-0b3a8b1e5a11',
  merchantHandle: 'blue-bottle-cafe',
  currency: 'USD',
  amountMinor: 1250n,
  minMinor: 0n,
  maxMinor: 0n,
  memo: 'Invoice 1042: catering',
  maxUses: 0n,
  expiresAt: new Date('2026-12-31T23:59:59.000Z'),
};

describe('pay link terms', () => {
  it('are signed by the key that signed them, and by no other', () => {
    const key = randomBytes(32);
    const signature = signTerms(key, terms);
    expect(termsAreSigned(key, terms, signature)).toBe(true);
    expect(termsAreSigned(randomBytes(32), terms, signature)).toBe(false);
  });

  it('lose their signature when any field changes, and when fields trade their text', () => {
    const key = randomBytes(32);
    const signature = signTerms(key, terms);
    const changed: Partial<SignedTerms>[] = [
      { amountMinor: 1251n },
      { minMinor: 1n },
      { maxMinor: 1n },
      { currency: 'EUR' },
      { memo: 'Invoice 1042: catering ' },
      { maxUses: 1n },
      { expiresAt: null },
      { merchantHandle: 'blue-bottle' },
      { id: '3b0f6f0e-2a53-4a55-9a43-1e1f7f0c9d22' },
      // Text moved from one field to the next signs differently: the fields are delimited, not concatenated.
      { merchantHandle: 'blue-bottle-cafeU', currency: 'SD' },
    ];
    for (const change of changed) expect(termsAreSigned(key, { ...terms, ...change }, signature)).toBe(false);
  });

  it('refuse a signature that is not 64 hex digits without comparing it', () => {
    const key = randomBytes(32);
    for (const signature of ['', 'zz', signTerms(key, terms).toUpperCase(), `${signTerms(key, terms)}00`]) {
      expect(termsAreSigned(key, terms, signature)).toBe(false);
    }
  });
});
