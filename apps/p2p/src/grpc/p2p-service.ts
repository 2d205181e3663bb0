import type { P2pServiceImplementation } from '@ctk/proto/ctk/p2p/v1/p2p';
import { getSetup } from '../domain/get-setup.js';

export const p2pService: P2pServiceImplementation = {
  async getSetup() {
    return { capabilities: getSetup() };
  },
};
