import { runService } from '@ctk/shared';
import { startContracts } from './app.js';
import { configSchema } from './config.js';

await runService({ name: 'contracts', schema: configSchema, start: startContracts });
