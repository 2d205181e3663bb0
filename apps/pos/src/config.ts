import { databaseConfigFields, serviceConfigFields } from '@ctk/shared';
import { z } from 'zod';

export const configSchema = z.object({
  ...serviceConfigFields('pos'),
  ...databaseConfigFields,
  /** How long a first page of items may be served from memory (0: never); writes here clear it at once. */
  POS_ITEMS_CACHE_MS: z.coerce.number().int().min(0).max(60_000).default(2_000),
});

export type Config = z.infer<typeof configSchema>;
