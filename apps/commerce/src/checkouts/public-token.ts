import { randomBytes } from 'node:crypto';

/** `cko_` and 24 random bytes, base64url: the only thing a shopper's browser holds of its checkout. */
export function newPublicToken(): string {
  return `cko_${randomBytes(24).toString('base64url')}`;
}

export const PUBLIC_TOKEN = /^cko_[A-Za-z0-9_-]{32}$/;
