import { runService } from '@ctk/shared';
import { buildGateway } from './app.js';
import { configSchema } from './config.js';

await runService({
  name: 'gateway',
  schema: configSchema,
  async start(config) {
    const gateway = await buildGateway(config);
    await gateway.app.listen({ port: config.PORT, host: config.HOST });
    return gateway;
  },
});
