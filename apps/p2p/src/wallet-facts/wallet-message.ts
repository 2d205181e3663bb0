import type { Wallet } from '@ctk/proto/ctk/p2p/v1/p2p';
import type { WalletFacts } from '../data/wallet-repository.js';

export function walletMessage(organizationId: string, facts: WalletFacts): Wallet {
  return {
    organizationId,
    receivingAddress: facts.receivingAddress ?? '',
    walletXpub: facts.walletXpub ?? '',
    identityPublicKey: facts.identityPublicKey ?? '',
  };
}
