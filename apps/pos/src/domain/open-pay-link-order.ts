import type { OrgRef } from '@ctk/proto/ctk/common/v1/common';
import { AppError, type Org } from '@ctk/shared';
import type { OrderTransaction, OrderWithParts } from '../data/order-repository.js';
import type { PayLinkWithUses } from '../data/pay-link-repository.js';
import type { PayLinkContext } from '../pay-links/pay-link-context.js';
import { assertClientMayOpen, assertOpenable } from '../pay-links/pay-link-state.js';
import { termsAreSigned } from '../pay-links/pay-link-terms.js';
import { createOrder } from './create-order.js';
import { getPayLink } from './get-pay-link.js';

/**
 * Opens an order for a payer of the link (decision 0015, "Pay links"): one line, the memo at the link's
 * signed amount or at the payer's choice within its signed bounds, and nothing else the payer sends.
 * The stored terms must carry pos's signature. The order is priced as every order is, with one difference:
 * the link's amount is what the payer pays, so tax is taken out of it whatever the organisation's setting.
 * Uses (decision 0024): open orders hold no use, so one payer who never pays blocks nobody; a used-up link
 * refuses (410) and one client address holds at most `opensPerClient` unpaid orders of a limited link
 * (429). Both are decided with the link's row locked while the order is inserted; the first payment takes
 * the use and cancels the other orders (record-order-payment.ts).
 */
export async function openPayLinkOrder(
  context: PayLinkContext,
  orgRef: Partial<OrgRef>,
  org: Org,
  input: { id: string; amountMinor: bigint; publicUrl: string; clientAddress?: string },
): Promise<OrderWithParts> {
  const link = await getPayLink(context, input.id);
  if (link.organizationId !== org.id) throw new AppError('not_found', 'No such pay link');
  const key = await context.signingKey();
  if (!termsAreSigned(key, link, link.signature)) {
    context.orders.logger.error({ payLinkId: link.id }, 'a pay link whose stored terms do not match their signature was refused');
    throw new AppError('failed_precondition', "This pay link's terms do not match their signature: it takes no payment", {
      reason: 'signature',
    });
  }
  const amount = amountToPay(link, input.amountMinor);
  assertOpenable(link, context.orders.now());
  const open = async () => {
    // Read again after the openings before this one: a spent limit is refused before a rate and an output are taken.
    if (link.maxUses > 0n) {
      assertOpenable(await getPayLink(context, link.id), context.orders.now());
      if (input.clientAddress) await assertClientHolds(context, link.id, input.clientAddress);
    }
    return openOrder(context, orgRef, org, link, amount, input.publicUrl, input.clientAddress ?? '');
  };
  return link.maxUses > 0n ? context.openings(link.id, open) : open();
}

/** The order itself, inserted after the link's row is locked and its uses counted again: the lock decides. */
function openOrder(
  context: PayLinkContext,
  orgRef: Partial<OrgRef>,
  org: Org,
  link: PayLinkWithUses,
  amount: bigint,
  publicUrl: string,
  clientAddress: string,
): Promise<OrderWithParts> {
  const guard = async (tx: Parameters<typeof context.links.lockedForOpening>[0]) => {
    const locked = await context.links.lockedForOpening(tx, link.id, context.orders.now());
    if (!locked) throw new AppError('not_found', 'No such pay link');
    assertOpenable(locked, context.orders.now());
    if (locked.maxUses > 0n && clientAddress) await assertClientHolds(context, link.id, clientAddress, tx);
  };
  return createOrder(
    context.orders,
    orgRef,
    org,
    {
      lines: [{ itemId: '', quantity: 1n, modifiers: [], name: link.memo, unitPriceMinor: amount }],
      discountBasisPoints: 0,
      discountMinor: 0n,
      tipBasisPoints: 0,
      tipMinor: 0n,
      currency: link.currency,
      publicUrl,
      createdBy: '',
      note: '',
    },
    { payLinkId: link.id, clientAddress, guard, pricesIncludeTax: true },
  );
}

/** 429 when the client address holds as many unpaid orders of the link as it may. */
async function assertClientHolds(context: PayLinkContext, id: string, clientAddress: string, tx?: OrderTransaction): Promise<void> {
  const now = context.orders.now();
  assertClientMayOpen(await context.links.heldByClient(id, clientAddress, now, tx), context.opensPerClient, now);
}

/** The signed fixed amount (the payer names none, or the same), or the payer's choice within the signed bounds. */
function amountToPay(link: PayLinkWithUses, chosen: bigint): bigint {
  if (link.amountMinor > 0n) {
    if (chosen && chosen !== link.amountMinor) {
      throw new AppError('validation_failed', `This pay link is for a fixed ${link.amountMinor}; leave amount_minor out`, {
        field: 'amount_minor',
      });
    }
    return link.amountMinor;
  }
  if (chosen < link.minMinor || chosen > link.maxMinor) {
    throw new AppError(
      'validation_failed',
      `amount_minor must be between ${link.minMinor} and ${link.maxMinor} (minor units of ${link.currency})`,
      { field: 'amount_minor' },
    );
  }
  return chosen;
}
