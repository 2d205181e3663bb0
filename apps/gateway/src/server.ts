import { createLogger } from '@ctk/shared';
import { buildGateway } from './app.js';
import { readConfig } from './config.js';

const logger = createLogger('gateway');
try {
  const config = readConfig();
  const gateway = await buildGateway(config);
  await gateway.app.listen({ port: config.PORT, host: config.HOST });
  const stop = async () => {
    await gateway.close();
    process.exit(0);
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
} catch (error) {
  logger.fatal({ err: error }, 'gateway failed to start');
  process.exit(1);
}
