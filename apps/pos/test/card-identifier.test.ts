import { randomBytes, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { newCardIdentifier, openIdentifier, readCardIdentifier, sealIdentifier } from '../src/cards/card-identifier.js';

describe('card identifiers', () => {
  it('are 16 characters of Crockford base32 in four groups, found again however they are typed', () => {
    const card = newCardIdentifier();
    expect(card.identifier).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){3}$/);
    const typed = card.identifier.toLowerCase().replaceAll('-', ' ').replaceAll('0', 'o').replaceAll('1', 'l');
    expect(readCardIdentifier(typed, 'identifier')).toEqual(card);
    expect(card.last4).toBe(card.identifier.slice(-4));
    expect(card.hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it.each([
    ['too short', 'ABCD-EFGH'],
    ['a letter outside the alphabet', 'ABCD-EFGH-JKMN-PQRU'],
    ['a NUL', 'ABCD-EFGH-JKMN-PQR\u0000'],
  ])('refuses %s, naming the field', (_, text) => {
    expect(() => readCardIdentifier(text, 'identifier')).toThrow(
      expect.objectContaining({ code: 'validation_failed', details: { field: 'identifier' } }),
    );
  });

  it('seals an identifier for its card only: another card id or key cannot open it', () => {
    const key = randomBytes(32);
    const cardId = randomUUID();
    const { identifier } = newCardIdentifier();
    const sealed = sealIdentifier(key, cardId, identifier);
    expect(sealed.includes(Buffer.from(identifier))).toBe(false);
    expect(openIdentifier(key, cardId, sealed)).toBe(identifier);
    expect(openIdentifier(key, randomUUID(), sealed)).toBeUndefined();
    expect(openIdentifier(randomBytes(32), cardId, sealed)).toBeUndefined();
  });
});
