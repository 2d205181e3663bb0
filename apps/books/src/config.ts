import { configFields } from '@ctk/shared';
import { z } from 'zod';

export const configSchema = z.object({
  ...configFields.grpcListen(50061),
  LOG_LEVEL: configFields.logLevel,
  /** PostgreSQL URL; absent means the embedded PGlite database under CTK_DATA_DIR. */
  DATABASE_URL: configFields.databaseUrl,
  CTK_DATA_DIR: configFields.dataDir,
  /** NATS with JetStream, where the payment events come from; absent (or empty) means no event consumer. */
  NATS_URL: configFields.natsUrl,
});

export type Config = z.infer<typeof configSchema>;
