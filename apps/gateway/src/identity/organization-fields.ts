import { HD, Utils } from '@bsv/sdk';
import { AppError } from '@ctk/shared';
import { z } from 'zod';
import { nameField } from '../routes/text-fields.js';

const P2PKH_PREFIXES = new Set([0x00, 0x6f]); // mainnet, testnet (and the local chain)

/** A P2PKH address on mainnet or testnet, checked by its base58check checksum. */
export const bsvAddress = z.string().refine((value) => {
  try {
    const { prefix, data } = Utils.fromBase58Check(value);
    return prefix.length === 1 && P2PKH_PREFIXES.has(prefix[0] as number) && data.length === 20;
  } catch {
    return false;
  }
}, 'not a valid BSV P2PKH address');

/** A BIP32 extended public key (xpub/tpub): the public side of the wallet; an extended private key is refused. */
export const walletXpubField = z
  .string()
  .trim()
  .max(200)
  .refine((value) => {
    try {
      const hd = HD.fromString(value);
      return !value.slice(1, 4).startsWith('prv') && hd.privKey === undefined;
    } catch {
      return false;
    }
  }, 'not an extended public key (xpub or tpub); never send an extended private key');

/** A compressed secp256k1 public key in hex (66 characters). */
export const publicKeyField = z
  .string()
  .regex(/^0[23][0-9a-fA-F]{64}$/, 'a compressed public key: 66 hex characters starting with 02 or 03')
  .transform((value) => value.toLowerCase());

const HANDLE = /^[a-z0-9](?:[a-z0-9-]{1,38}[a-z0-9])$/;
const HANDLE_RULE = 'use 3 to 40 lower-case letters, digits and inner hyphens';

export const handleField = z.string().regex(HANDLE, HANDLE_RULE);

/** Why this text cannot be an organisation's handle, or null when it can: checked before any lookup by handle. */
export function handleProblem(text: string): string | null {
  return HANDLE.test(text) ? null : `not a handle: ${HANDLE_RULE}`;
}

/** The fields an organisation can be created or updated with. */
export const organizationFields = z
  .object({
    name: nameField(120),
    handle: handleField.optional(),
    /** A code of books' tax table: books checks it (checkJurisdiction) and says what a code looks like. */
    jurisdiction: z.string().optional(),
    prices_include_tax: z.boolean().optional(),
    receiving_address: bsvAddress.optional(),
    paymail_alias: z
      .string()
      .regex(/^[a-z0-9][a-z0-9._-]{0,63}$/, 'use lower-case letters, digits, ".", "_" and "-"')
      .optional(),
    wallet_xpub: walletXpubField.optional(),
    identity_public_key: publicKeyField.optional(),
    avatar_url: z
      .url({ protocol: /^https?$/ })
      .max(500)
      .optional(),
    category: nameField(60).optional(),
    latitude: z.number().min(-90).max(90).optional(),
    longitude: z.number().min(-180).max(180).optional(),
  })
  .strict();

/**
 * What books answered about the jurisdiction given (checkJurisdiction), stored beside it: whether shelf
 * prices include tax there. Never from the request.
 */
export type JurisdictionDefault = { jurisdictionPricesIncludeTax?: boolean };

export type OrganizationFields = z.infer<typeof organizationFields> & JurisdictionDefault;

/** What PATCH changes: any field but the handle; `prices_include_tax: null` goes back to the jurisdiction's default. */
export const organizationUpdate = organizationFields.omit({ handle: true }).partial().extend({
  prices_include_tax: z.boolean().nullable().optional(),
});

export type OrganizationUpdate = z.infer<typeof organizationUpdate> & JurisdictionDefault;

/** Prisma data from the API's snake_case fields. */
export function organizationData(fields: OrganizationUpdate) {
  // A jurisdiction is stored only with books' default for it: one written without would keep a stale one.
  if (fields.jurisdiction !== undefined && fields.jurisdictionPricesIncludeTax === undefined)
    throw new AppError('internal', 'a jurisdiction reached the database without being checked with books');
  return {
    name: fields.name,
    jurisdiction: fields.jurisdiction,
    pricesIncludeTax: fields.prices_include_tax,
    jurisdictionPricesIncludeTax: fields.jurisdictionPricesIncludeTax,
    receivingAddress: fields.receiving_address,
    paymailAlias: fields.paymail_alias,
    walletXpub: fields.wallet_xpub,
    identityPublicKey: fields.identity_public_key,
    avatarUrl: fields.avatar_url,
    category: fields.category,
    latitude: fields.latitude,
    longitude: fields.longitude,
  };
}

/** A handle from a name: "Blue Bottle Café" -> "blue-bottle-cafe". */
export function handleFromName(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 32)
    .replace(/-+$/, '');
  return slug.length >= 3 ? slug : `org-${slug || 'new'}`;
}
