import { createHash } from 'node:crypto';
import { AppError } from '@ctk/shared';
import { CROCKFORD, randomCrockford } from '../domain/crockford.js';

/**
 * A card's identifier (docs/decisions/0017-customer-cards.md): 16 characters of Crockford base32 (80
 * random bits), shown as XXXX-XXXX-XXXX-XXXX. It is the bearer secret of the card: pos keeps its SHA-256
 * and its last 4 characters, never the identifier itself.
 */
export type CardIdentifier = { identifier: string; hash: string; last4: string };

const LENGTH = 16;

export function newCardIdentifier(): CardIdentifier {
  return identifierParts(randomCrockford(LENGTH));
}

/**
 * The identifier a person typed or a scanner read: dashes, spaces and case ignored, and the letters
 * Crockford base32 reads as digits (I and L as 1, O as 0) read so. Anything else is a 422 naming `field`,
 * before any lookup.
 */
export function readCardIdentifier(text: string, field: string): CardIdentifier {
  const compact = text.replace(/[\s-]/g, '').toUpperCase().replace(/[IL]/g, '1').replace(/O/g, '0');
  if (compact.length !== LENGTH || [...compact].some((character) => !CROCKFORD.includes(character))) {
    throw new AppError('validation_failed', `${field} must be a card identifier: 16 letters and digits, as XXXX-XXXX-XXXX-XXXX.`, {
      field,
    });
  }
  return identifierParts(compact);
}

function identifierParts(compact: string): CardIdentifier {
  return {
    identifier: compact.match(/.{4}/g)!.join('-'),
    hash: createHash('sha256').update(compact).digest('hex'),
    last4: compact.slice(-4),
  };
}
