import { configFields } from '@ctk/shared';
import { z } from 'zod';

export const configSchema = z.object({
  ...configFields.grpcListen(50061),
  LOG_LEVEL: configFields.logLevel,
  /** PostgreSQL URL; absent means the embedded PGlite database under CTK_DATA_DIR. */
  DATABASE_URL: configFields.databaseUrl,
  CTK_DATA_DIR: configFields.dataDir,
});

export type Config = z.infer<typeof configSchema>;
