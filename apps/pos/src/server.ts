import { runService } from '@ctk/shared';
import { startPos } from './app.js';
import { configSchema } from './config.js';

await runService({ name: 'pos', schema: configSchema, start: startPos });
