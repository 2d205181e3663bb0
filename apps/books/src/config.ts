import { databaseConfigFields, eventConfigFields, serviceConfigFields } from '@ctk/shared';
import { z } from 'zod';

export const configSchema = z.object({
  ...serviceConfigFields('books'),
  ...databaseConfigFields,
  /** Where the payment events come from. */
  ...eventConfigFields,
});

export type Config = z.infer<typeof configSchema>;
