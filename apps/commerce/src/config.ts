import { databaseConfigFields, serviceAddressFields, serviceConfigFields } from '@ctk/shared';
import { z } from 'zod';

export const configSchema = z.object({
  ...serviceConfigFields('commerce'),
  ...databaseConfigFields,
  // Commerce calls pos: the catalog is pos's items and menu, and a checkout is a pos order.
  ...serviceAddressFields(['pos']),
  /** How long an organisation's catalog, as read from pos, is served from memory (0: read it every time). */
  COMMERCE_CATALOG_CACHE_MS: z.coerce.number().int().min(0).max(60_000).default(2_000),
});

export type Config = z.infer<typeof configSchema>;
