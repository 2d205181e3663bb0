import { runService } from '@ctk/shared';
import { startBooks } from './app.js';
import { configSchema } from './config.js';

await runService({ name: 'books', schema: configSchema, start: startBooks });
