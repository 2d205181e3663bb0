import { randomBytes } from 'node:crypto';

/** `spi_` and 24 random bytes, base64url: an intent's payment id, and all anyone needs to read or pay it. */
export function newIntentId(): string {
  return `spi_${randomBytes(24).toString('base64url')}`;
}

export const INTENT_ID = /^spi_[A-Za-z0-9_-]{32}$/;
