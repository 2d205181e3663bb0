import { runService } from '@ctk/shared';
import { startCommerce } from './app.js';
import { configSchema } from './config.js';

await runService({ name: 'commerce', schema: configSchema, start: startCommerce });
