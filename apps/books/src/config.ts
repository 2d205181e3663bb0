import { databaseConfigFields, eventConfigFields, serviceConfigFields } from '@ctk/shared';
import { z } from 'zod';

export const configSchema = z.object({
  ...serviceConfigFields('books'),
  ...databaseConfigFields,
  /** Where the payment events come from. */
  ...eventConfigFields,
  /** The most journal entries one ledger export holds; a wider range is refused (422) before the file starts. */
  BOOKS_EXPORT_MAX_ENTRIES: z.coerce.number().int().min(1).default(50_000),
});

export type Config = z.infer<typeof configSchema>;
