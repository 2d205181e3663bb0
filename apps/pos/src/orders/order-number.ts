import { randomCrockford } from '../domain/crockford.js';

/** 10 characters of Crockford base32 from 50 random bits: the public reads need it, and it cannot be guessed in sequence. */
export function newOrderNumber(): string {
  return randomCrockford(10);
}

/** What an order number looks like, checked before any lookup. */
export const ORDER_NUMBER = /^[0-9A-HJKMNP-TV-Z]{10}$/;
