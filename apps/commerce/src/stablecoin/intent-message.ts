import type { StablecoinIntent } from '@ctk/proto/ctk/commerce/v1/commerce';
import type { StablecoinIntentRow } from '../data/stablecoin-repository.js';

/** What an intent's stored status reads as now: one still awaiting payment past its expiry is expired. */
export function intentStatus(intent: StablecoinIntentRow, now: Date): string {
  return intent.status === 'requires_payment' && intent.expiresAt <= now ? 'expired' : intent.status;
}

export function toIntentMessage(intent: StablecoinIntentRow, now: Date): StablecoinIntent {
  return {
    id: intent.id,
    status: intentStatus(intent, now),
    orgHandle: intent.orgHandle,
    orderNumber: intent.orderNumber,
    checkout: intent.checkoutToken ?? undefined,
    description: intent.description,
    amountCents: intent.amountCents,
    taxCents: intent.taxCents,
    currency: 'USD',
    payment: {
      tokenId: intent.tokenId,
      symbol: intent.symbol,
      decimals: intent.decimals,
      tokenAmount: intent.tokenAmount.toString(),
      address: intent.address,
      cosignerPublicKey: intent.cosignerKey,
    },
    transfers: intent.transfers.map((transfer) => ({
      txid: transfer.txid,
      vout: transfer.vout,
      tokenAmount: transfer.tokenAmount.toString(),
      outcome: transfer.outcome,
      reason: transfer.reason ?? '',
      receivedAt: transfer.receivedAt.toISOString(),
    })),
    expiresAt: intent.expiresAt.toISOString(),
    createdAt: intent.createdAt.toISOString(),
    succeededAt: intent.succeededAt?.toISOString(),
  };
}
