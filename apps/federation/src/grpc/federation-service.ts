import type { FederationServiceImplementation } from '@ctk/proto/ctk/federation/v1/federation';
import { getSetup } from '../domain/get-setup.js';

export const federationService: FederationServiceImplementation = {
  async getSetup() {
    return { capabilities: getSetup() };
  },
};
