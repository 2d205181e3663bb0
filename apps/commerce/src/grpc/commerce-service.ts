import type { CommerceServiceImplementation } from '@ctk/proto/ctk/commerce/v1/commerce';
import { getSetup } from '../domain/get-setup.js';

export const commerceService: CommerceServiceImplementation = {
  async getSetup() {
    return { capabilities: getSetup() };
  },
};
