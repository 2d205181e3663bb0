import { configFields } from '@ctk/shared';
import { z } from 'zod';

export const configSchema = z.object({
  ...configFields.grpcListen(50061),
  LOG_LEVEL: configFields.logLevel,
});

export type Config = z.infer<typeof configSchema>;
