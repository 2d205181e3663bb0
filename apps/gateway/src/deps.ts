import type { Credentials } from './auth/credentials.js';
import type { Config } from './config.js';
import type { PrismaClient } from './data/prisma.js';
import type { ServiceClients } from '@ctk/shared';

/** What the gateway's handlers and use cases are given. */
export type GatewayDeps = {
  config: Config;
  prisma: PrismaClient;
  credentials: Credentials;
  services: ServiceClients;
};
