import { z } from 'zod';

/** A compressed public key in hex, or '' (not given); kept in lower case, as the gate compares keys. */
export function compressedKeyOrNone(field: string) {
  return z
    .string()
    .regex(/^(0[23][0-9a-fA-F]{64})?$/, `${field} must be a compressed public key in hex (66 characters, 02 or 03 first)`)
    .transform((key) => key.toLowerCase());
}
