import { Hash, Utils } from '@bsv/sdk';
import { AppError } from '@ctk/shared';
import { z } from 'zod';

/** One line of an order as the receipt commits to it. Amounts are integers of minor units. */
export const orderLineSchema = z
  .object({
    /** The catalog item, or null for an ad hoc line. */
    item_id: z.string().min(1).max(200).nullable(),
    name: z.string().min(1).max(500),
    quantity: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
    unit_price_minor: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
    /** ISO 4217 code (or BSV), upper case. */
    currency: z.string().regex(/^[A-Z]{3}$/, 'use an upper-case three-letter code such as "USD"'),
  })
  .strict();

export type OrderLine = z.infer<typeof orderLineSchema>;

export const orderLinesSchema = z.array(orderLineSchema).min(1).max(1000);

/**
 * The canonical encoding the receipt's lines hash is taken over: a JSON array with one array per line,
 * in order, `[item_id, name, quantity, unit_price_minor, currency]`, names in Unicode NFC, serialised
 * without whitespace (RFC 8785, which for strings, integers and null is what JSON.stringify writes),
 * as UTF-8 bytes.
 */
export function canonicalOrderLines(lines: readonly OrderLine[]): string {
  const parsed = orderLinesSchema.safeParse(lines);
  if (!parsed.success)
    throw new AppError('validation_failed', `Order lines are not valid: ${parsed.error.issues[0]?.message ?? 'bad lines'}.`, {
      issues: parsed.error.issues,
    });
  return JSON.stringify(
    parsed.data.map((line) => [line.item_id, line.name.normalize('NFC'), line.quantity, line.unit_price_minor, line.currency]),
  );
}

/** SHA-256 of the canonical encoding, in hex (64 characters): the receipt's `linesHash`. */
export function hashOrderLines(lines: readonly OrderLine[]): string {
  return Utils.toHex(Hash.sha256(Utils.toArray(canonicalOrderLines(lines), 'utf8')));
}
