import type { Order as OrderMessage } from '@ctk/proto/ctk/pos/v1/pos';
import type { OrderWithParts } from '../data/order-repository.js';
import { dueSatoshis, flagsAt, statusAt } from '../orders/order-state.js';
import { paymentUris } from '../orders/payment-uris.js';
import { refundedMinor } from '../refunds/refund-state.js';
import { toRefundMessage } from './refund-message.js';

type StoredModifier = { modifier_id: string; name: string; price_minor: string };

/**
 * The order as the contract answers it: public (decision 0015), so without the organisation's id, who
 * created it, the derivation index or anything else private.
 */
export function toOrderMessage(order: OrderWithParts, publicUrl: string, now: Date): OrderMessage {
  const due = dueSatoshis(order, now);
  const uris = paymentUris(order, due, publicUrl);
  // Absent, not '', where the order has none: the contract's optional fields are null in the JSON.
  const iso = (date: Date | null) => date?.toISOString();
  return {
    orderNumber: order.orderNumber,
    status: statusAt(order, now),
    currency: order.currency,
    lines: order.lines.map((line) => ({
      itemId: line.itemId ?? '',
      name: line.name,
      quantity: line.quantity,
      unitPriceMinor: line.unitPriceMinor,
      modifiers: (line.modifiers as StoredModifier[]).map((modifier) => ({
        modifierId: modifier.modifier_id,
        name: modifier.name,
        priceMinor: BigInt(modifier.price_minor),
      })),
      discountMinor: line.discountMinor,
      taxTreatment: line.taxTreatment,
      taxRate: line.taxRate,
      taxMinor: line.taxMinor,
      totalMinor: line.totalMinor,
    })),
    subtotalMinor: order.subtotalMinor,
    discountMinor: order.discountMinor,
    taxMinor: order.taxMinor,
    tipMinor: order.tipMinor,
    totalMinor: order.totalMinor,
    pricesIncludeTax: order.pricesIncludeTax,
    taxJurisdiction: order.taxJurisdiction,
    exchangeRate: order.exchangeRate,
    rateSource: order.rateSource,
    rateAt: order.rateAt.toISOString(),
    satoshis: order.satoshis,
    paidSatoshis: order.paidSatoshis,
    dueSatoshis: due,
    flags: flagsAt(order, now),
    address: order.address,
    bip21Uri: uris.bip21Uri,
    payUri: uris.payUri,
    paymentRequestUrl: uris.paymentRequestUrl,
    payments: order.payments.map((payment) => ({
      txid: payment.txid,
      satoshis: payment.satoshis,
      via: payment.via,
      status: payment.status,
      receivedAt: payment.receivedAt.toISOString(),
      late: payment.late,
    })),
    note: order.note,
    createdAt: order.createdAt.toISOString(),
    expiresAt: order.expiresAt.toISOString(),
    paidAt: iso(order.paidAt),
    confirmedAt: iso(order.confirmedAt),
    cancelledAt: iso(order.cancelledAt),
    receiptMerchant: order.receiptMerchant,
    receiptReference: order.orderNumber,
    merchantHandle: order.merchantHandle,
    payLinkId: order.payLinkId ?? '',
    // Customer cards (decision 0017). The loyalty card is staff only: the gateway's public order view leaves it out.
    cardPaidMinor: order.cardPaidMinor,
    loyaltyCardId: order.loyaltyCardId ?? '',
    prepaidCardId: order.prepaidCardId ?? undefined,
    creditsTokenId: order.creditsTokenId ?? undefined,
    commissionMinor: order.commissionMinor,
    commissionSatoshis: order.commissionSatoshis,
    commissionAddress: order.commissionAddress ?? undefined,
    referralLinkId: order.referralLinkId ?? undefined,
    paidElsewhereBy: order.paidElsewhereBy ?? undefined,
    rewardMinor: order.rewardMinor,
    reward: order.reward,
    // Its refunds (decision 0033): what they hold of it, and what is paid back.
    refunds: order.refunds.map((refund) => toRefundMessage(refund, order, publicUrl, now)),
    refundedMinor: refundedMinor(order, now),
    refundedPaidMinor: refundedMinor(order, now, true),
  };
}
