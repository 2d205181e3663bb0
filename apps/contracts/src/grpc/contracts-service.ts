import type { ContractsServiceImplementation } from '@ctk/proto/ctk/contracts/v1/contracts';
import { getSetup } from '../domain/get-setup.js';

export const contractsService: ContractsServiceImplementation = {
  async getSetup() {
    return { capabilities: getSetup() };
  },
};
