import { isTimeZone } from '@ctk/shared';
import { z } from 'zod';
import { nameField } from '../routes/text-fields.js';

export const HANDLE = /^[a-z0-9](?:[a-z0-9-]{1,38}[a-z0-9])$/;
const HANDLE_RULE = 'use 3 to 40 lower-case letters, digits and inner hyphens';

export const handleField = z.string().regex(HANDLE, HANDLE_RULE);

/** The path of every route under an organisation: `/api/v1/orgs/:handle/...`. */
export const orgParams = z.object({ handle: handleField });
/** The path of every Commerce API route: the merchant the commerce key is of. */
export const merchantParams = z.object({
  merchant_handle: handleField.describe("The merchant's handle; the commerce key must be its own"),
});
/** The path of a shop's routes: the shop is the organisation. */
export const shopParams = z.object({ shop_id: handleField.describe("The shop: its organisation's handle") });

/** Why this text cannot be an organisation's handle, or null when it can: checked before any lookup by handle. */
export function handleProblem(text: string): string | null {
  return HANDLE.test(text) ? null : `not a handle: ${HANDLE_RULE}`;
}

/** The fields an organisation can be created or updated with. */
export const organizationFields = z
  .object({
    name: nameField(120),
    handle: handleField.optional(),
    /** A code of books' tax table: books checks it and says what a code looks like (owner-facts.ts). */
    jurisdiction: z.string().optional(),
    prices_include_tax: z.boolean().optional(),
    /** The wallet's facts are p2p's, which checks them (owner-facts.ts): here only their shape. */
    receiving_address: z.string().optional(),
    paymail_alias: z
      .string()
      .regex(/^[a-z0-9][a-z0-9._-]{0,63}$/, 'use lower-case letters, digits, ".", "_" and "-"')
      .optional(),
    wallet_xpub: z.string().trim().max(200).optional(),
    identity_public_key: z.string().optional(),
    avatar_url: z
      .url({ protocol: /^https?$/ })
      .max(500)
      .optional(),
    category: nameField(60).optional(),
    latitude: z.number().min(-90).max(90).optional(),
    longitude: z.number().min(-180).max(180).optional(),
    time_zone: z
      .string()
      .max(64)
      .refine(isTimeZone, 'use an IANA time zone, such as America/Los_Angeles')
      .transform((zone) => new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone)
      .optional(),
  })
  .strict();

export type OrganizationFields = z.infer<typeof organizationFields>;

/** What PATCH changes: any field but the handle; `prices_include_tax: null` goes back to the jurisdiction's default. */
export const organizationUpdate = organizationFields.omit({ handle: true }).partial().extend({
  prices_include_tax: z.boolean().nullable().optional(),
});

export type OrganizationUpdate = z.infer<typeof organizationUpdate>;

/**
 * Prisma data of the gateway's own fields from the API's snake_case fields. A fact another service owns
 * that the change names empties the gateway's old copy of it (kept only until it is moved to its owner,
 * move-owner-facts.ts), so the move never writes an older value over the change.
 */
export function organizationData(fields: OrganizationUpdate) {
  const emptied = (given: unknown) => (given === undefined ? undefined : null);
  return {
    name: fields.name,
    paymailAlias: fields.paymail_alias,
    avatarUrl: fields.avatar_url,
    category: fields.category,
    latitude: fields.latitude,
    longitude: fields.longitude,
    timeZone: fields.time_zone,
    jurisdiction: emptied(fields.jurisdiction),
    pricesIncludeTax: emptied(fields.prices_include_tax),
    receivingAddress: emptied(fields.receiving_address),
    walletXpub: emptied(fields.wallet_xpub),
    identityPublicKey: emptied(fields.identity_public_key),
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
