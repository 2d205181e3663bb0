import { databaseConfigFields, serviceConfigFields } from '@ctk/shared';
import { z } from 'zod';

export const configSchema = z.object({
  ...serviceConfigFields('pos'),
  ...databaseConfigFields,
  /** How long a first page of items may be served from memory (0: never); writes here clear it at once. */
  POS_ITEMS_CACHE_MS: z.coerce.number().int().min(0).max(60_000).default(2_000),
  /** A menu photo's OCR taking longer is abandoned (504); the gateway waits for the queue and this. */
  POS_OCR_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(120_000).default(15_000),
  /** Menu photos waiting behind the one being read; one more is refused 503 (OCR takes a core, one at a time). */
  POS_OCR_MAX_WAITING: z.coerce.number().int().min(0).max(100).default(3),
});

export type Config = z.infer<typeof configSchema>;
