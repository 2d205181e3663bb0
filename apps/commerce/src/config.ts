import { serviceConfigFields } from '@ctk/shared';
import { z } from 'zod';

export const configSchema = z.object(serviceConfigFields('commerce'));

export type Config = z.infer<typeof configSchema>;
