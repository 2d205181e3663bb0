import { z } from 'zod';

/** A pos order number (Crockford base32, ten characters): credits are redeemed against the shop's pos orders. */
export const orderNumberSchema = z
  .string()
  .regex(/^[0-9A-HJKMNP-TV-Z]{10}$/i, 'order_number must be a pos order number: ten Crockford base32 letters and digits (no I, L, O or U)');
