import { runService } from '@ctk/shared';
import { service } from './app.js';

await runService(service);
