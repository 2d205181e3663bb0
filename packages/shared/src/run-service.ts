import type { z } from 'zod';
import { loadConfig } from './config.js';
import { createLogger, type Logger } from './logger.js';

type Startable<C> = (config: C, logger: Logger) => Promise<{ close(): Promise<void> }>;

/**
 * The whole life of an app's process: load and validate its config, start it, and on SIGTERM or SIGINT
 * close it gracefully (in-flight calls drain) and exit 0. A failure to start is logged and exits 1.
 */
export async function runService<S extends z.ZodType<{ LOG_LEVEL: string }>>(options: {
  name: string;
  schema: S;
  start: Startable<z.infer<S>>;
}): Promise<void> {
  let logger: Logger = createLogger(options.name);
  try {
    const config = loadConfig(options.schema);
    logger = createLogger(options.name, config.LOG_LEVEL);
    const app = await options.start(config, logger);
    let stopping = false;
    const stop = (signal: NodeJS.Signals) => {
      if (stopping) return;
      stopping = true;
      logger.info({ signal }, `${options.name} shutting down`);
      app.close().then(
        () => process.exit(0),
        (error: unknown) => {
          logger.error({ err: error }, `${options.name} did not shut down cleanly`);
          process.exit(1);
        },
      );
    };
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
  } catch (error) {
    logger.fatal({ err: error }, `${options.name} failed to start`);
    process.exit(1);
  }
}
