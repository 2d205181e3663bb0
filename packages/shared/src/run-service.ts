import type { z } from 'zod';
import { loadConfig } from './config.js';
import { createLogger, type Logger } from './logger.js';
import type { BaseConfig, ServiceDefinition } from './service/define-service.js';
import { startService, type StartOptions } from './service/start-service.js';

type Startable<C> = (config: C, logger: Logger) => Promise<{ close(): Promise<void> }>;

/**
 * The whole life of a process: load and validate its config from the environment, start it, and on
 * SIGTERM or SIGINT close it gracefully (in-flight calls drain) and exit 0. A failure to start is logged
 * and exits 1. Apps use runService; a tool such as the local chain uses this directly.
 */
export async function runProcess<S extends z.ZodType<{ LOG_LEVEL: string }>>(
  name: string,
  schema: S,
  start: Startable<z.infer<S>>,
): Promise<void> {
  let logger: Logger = createLogger(name);
  try {
    const config = loadConfig(schema);
    logger = createLogger(name, config.LOG_LEVEL as never);
    const running = await start(config, logger);
    let stopping = false;
    const stop = (signal: NodeJS.Signals) => {
      if (stopping) return;
      stopping = true;
      logger.info({ signal }, `${name} shutting down`);
      running.close().then(
        () => process.exit(0),
        (error: unknown) => {
          logger.error({ err: error }, `${name} did not shut down cleanly`);
          process.exit(1);
        },
      );
    };
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
  } catch (error) {
    logger.fatal({ err: error }, `${name} failed to start`);
    process.exit(1);
  }
}

/** An app's own process (its dist/server.js): its definition started through the one bootstrap, stopped on a signal. */
export function runService<C extends BaseConfig, P, O>(definition: ServiceDefinition<C, P, O>): Promise<void> {
  return runProcess(definition.name, definition.configSchema as z.ZodType<C>, (config, logger) =>
    startService(definition, config, { logger } as StartOptions<O>),
  );
}
