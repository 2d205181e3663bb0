import type { IssuePrepaidCardResponse } from '@ctk/proto/ctk/pos/v1/pos';
import { AppError, type CallOptions } from '@ctk/shared';
import type { GatewayDeps } from '../deps.js';
import { orgRef } from '../routes/service-call.js';

export type Purchase = {
  orgHandle: string;
  amountMinor: bigint;
  currency: string;
  gift: boolean;
  to: { address: string; publicKey: string } | undefined;
  userId: string;
};

/**
 * A customer buys a prepaid card of a shop (decision 0017): any caller may, so no role is asked. The
 * gateway resolves the shop as for staff's orders (its wallet, jurisdiction and tax setting travel with
 * the call), and pos issues a pending card and the order that sells it, held by the caller, or for a gift
 * by `to` or nobody (the buyer hands the identifier on).
 */
export async function purchasePrepaidCard(deps: GatewayDeps, purchase: Purchase, options: CallOptions): Promise<IssuePrepaidCardResponse> {
  const org = await deps.credentials.org(purchase.orgHandle);
  if (!org) throw new AppError('not_found', `No organisation with handle "${purchase.orgHandle}".`);
  const holder = purchase.gift
    ? { address: purchase.to?.address ?? '', publicKey: purchase.to?.publicKey ?? '', userId: '' }
    : { address: '', publicKey: '', userId: purchase.userId };
  return deps.services.pos.issuePrepaidCard(
    {
      org: orgRef({ ...org, role: null }),
      amountMinor: purchase.amountMinor,
      currency: purchase.currency,
      holder,
      publicUrl: deps.config.CTK_PUBLIC_URL,
      createdBy: purchase.userId,
    },
    options,
  );
}
