import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { AppError } from '@ctk/shared';
import { CROCKFORD, randomCrockford } from '../domain/crockford.js';

/**
 * A card's identifier (docs/decisions/0017-customer-cards.md): 16 characters of Crockford base32 (80
 * random bits), shown as XXXX-XXXX-XXXX-XXXX. It is the bearer secret of the card: pos finds a card by its
 * SHA-256, and keeps the identifier itself only sealed (AES-256-GCM under POS_CARD_KEY) for its holder's
 * wallet and pass.
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

/** The identifier sealed for the card `cardId` (AES-256-GCM, the card id as associated data): nonce, tag, ciphertext. */
export function sealIdentifier(key: Buffer, cardId: string, identifier: string): Buffer {
  const nonce = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, nonce).setAAD(Buffer.from(cardId));
  const sealed = Buffer.concat([cipher.update(identifier, 'utf8'), cipher.final()]);
  return Buffer.concat([nonce, cipher.getAuthTag(), sealed]);
}

/** The identifier sealed for `cardId`; undefined when it cannot be opened (another key, another card's). */
export function openIdentifier(key: Buffer, cardId: string, sealed: Uint8Array): string | undefined {
  try {
    const bytes = Buffer.from(sealed);
    const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, 12)).setAAD(Buffer.from(cardId));
    decipher.setAuthTag(bytes.subarray(12, 28));
    return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}
