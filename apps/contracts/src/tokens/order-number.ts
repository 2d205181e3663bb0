import { z } from 'zod';

/** A pos order number (Crockford base32, ten characters): credits are redeemed against the shop's pos orders. */
export const orderNumberSchema = z.string().regex(/^[0-9A-Za-z]{10}$/, 'order_number must be a pos order number: ten letters and digits');
