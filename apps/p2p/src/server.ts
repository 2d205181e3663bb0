import { runService } from '@ctk/shared';
import { startP2p } from './app.js';
import { configSchema } from './config.js';

await runService({ name: 'p2p', schema: configSchema, start: startP2p });
