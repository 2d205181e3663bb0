import { runService } from '@ctk/shared';
import { startFederation } from './app.js';
import { configSchema } from './config.js';

await runService({ name: 'federation', schema: configSchema, start: startFederation });
