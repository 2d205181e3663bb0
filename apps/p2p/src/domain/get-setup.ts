import type { CapabilitySetup } from '@ctk/proto/ctk/common/v1/common';
import type { WalletOrg } from './org-wallet.js';

/**
 * What an organisation has set up of p2p's capabilities. Paymail needs a wallet to pay to (the alias
 * itself is the gateway's fact); the wallet API needs nothing; payment gates are not built yet.
 */
export function getSetup(org: WalletOrg): CapabilitySetup[] {
  const wallet = Boolean(org.walletXpub || org.receivingAddress);
  return [
    {
      capabilityId: 'paygate_402',
      setUp: false,
      nextStep: 'Pay-per-request gates become available in a later release; the p2p service does not price resources yet.',
    },
    {
      capabilityId: 'paymail',
      setUp: wallet,
      nextStep: wallet
        ? ''
        : `Register your wallet's extended public key so each paymail payment gets a fresh address: PATCH /api/v1/organizations/${org.handle} with wallet_xpub (or receiving_address).`,
    },
    { capabilityId: 'wallet_api', setUp: true, nextStep: '' },
  ];
}
