import type { CapabilitySetup } from '@ctk/proto/ctk/common/v1/common';
import { hasLiveResource } from '../data/gate-resource-repository.js';
import type { PrismaClient } from '../generated/prisma/client.js';
import type { WalletOrg } from './org-wallet.js';

/**
 * What an organisation has set up of p2p's capabilities, from the wallet p2p keeps for it. A receiving
 * address is registered or not; paymail needs a wallet to pay to (the alias itself is the gateway's fact);
 * the payment gate needs an xpub (a fresh output per payment request) and a priced resource (the key is
 * the gateway's fact); the wallet API needs nothing.
 */
export async function getSetup(prisma: PrismaClient, org: WalletOrg): Promise<CapabilitySetup[]> {
  const wallet = Boolean(org.walletXpub || org.receivingAddress);
  const priced = org.walletXpub ? await hasLiveResource(prisma, org.id) : false;
  return [
    {
      capabilityId: 'paygate_402',
      setUp: priced,
      nextStep: !org.walletXpub
        ? `Register your wallet's extended public key, so each 402 asks for a fresh address of yours: PATCH /api/v1/organizations/${org.handle} with wallet_xpub.`
        : priced
          ? ''
          : 'Put a price on a URL of your API with your payment-gate key: POST /api/v1/402/resources.',
    },
    {
      capabilityId: 'paymail',
      setUp: wallet,
      nextStep: wallet
        ? ''
        : `Register your wallet's extended public key so each paymail payment gets a fresh address: PATCH /api/v1/organizations/${org.handle} with wallet_xpub (or receiving_address).`,
    },
    { capabilityId: 'wallet_api', setUp: true, nextStep: '' },
    {
      capabilityId: 'receiving_address',
      setUp: org.receivingAddress !== null,
      nextStep:
        org.receivingAddress !== null
          ? ''
          : `Register your wallet's receiving address: PATCH /api/v1/organizations/${org.handle} with receiving_address.`,
    },
  ];
}
