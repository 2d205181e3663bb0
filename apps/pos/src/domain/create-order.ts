import type { OrgRef } from '@ctk/proto/ctk/common/v1/common';
import { AppError, lineOfText, MAX_SATOSHIS_BIGINT, ORDER_LIMITS, type Org, validate } from '@ctk/shared';
import { z } from 'zod';
import type { OrderTransaction, OrderWithParts } from '../data/order-repository.js';
import { satoshisFor } from '../rates/exchange-rate.js';
import type { OrderContext } from '../orders/order-context.js';
import { readOrderItems, type OrderItem } from '../orders/order-items.js';
import { orderHold } from '../orders/order-hold.js';
import { newOrderNumber } from '../orders/order-number.js';
import type { OrderTax } from '../orders/order-tax.js';
import { linesHashOf, receiptMerchant } from '../orders/order-receipt.js';
import { priceOrder, type LineToPrice, type PricedOrder } from '../orders/price-order.js';
import { MAX_PRICE_CENTS } from './create-item.js';
import { orderLoyaltyCard } from '../loyalty/order-loyalty-card.js';
import { oneRedemptionAtATime, rewardToRedeem, spendReward, type RewardToRedeem } from '../loyalty/order-reward.js';

const { lines: MAX_LINES, modifiersPerLine: MAX_MODIFIERS, basisPoints: MAX_BASIS_POINTS } = ORDER_LIMITS;
const MAX_QUANTITY = BigInt(ORDER_LIMITS.quantity);
const KEYPAD_NAME = 'Custom amount';
const minor = (field: string) =>
  z.bigint().min(0n, `${field} must not be negative`).max(MAX_PRICE_CENTS, `${field} must be at most ${MAX_PRICE_CENTS}`);
const basisPoints = (field: string) =>
  z.number().int().min(0, `${field} must not be negative`).max(MAX_BASIS_POINTS, `${field} must be at most ${MAX_BASIS_POINTS} (100%)`);

const lineSchema = z.object({
  itemId: z.union([z.literal(''), z.guid('item_id must be an item id (a UUID)')]),
  // Absent: one of it.
  quantity: z.bigint().min(1n, 'quantity must be at least 1').max(MAX_QUANTITY, `quantity must be at most ${MAX_QUANTITY}`).default(1n),
  modifiers: z.array(z.object({ modifierId: z.string().max(100) })).max(MAX_MODIFIERS, `a line takes at most ${MAX_MODIFIERS} modifiers`),
  name: lineOfText('name', 200),
  unitPriceMinor: minor('unit_price_minor'),
  chosenPriceMinor: minor('chosen_price_minor').optional(),
});

const orderSchema = z
  .object({
    lines: z.array(lineSchema).min(1, 'an order needs at least one line').max(MAX_LINES, `an order takes at most ${MAX_LINES} lines`),
    discountBasisPoints: basisPoints('discount_basis_points'),
    discountMinor: minor('discount_minor'),
    tipBasisPoints: basisPoints('tip_basis_points'),
    tipMinor: minor('tip_minor'),
    currency: z.union([z.literal(''), z.string().regex(/^[A-Z]{3}$/, 'currency must be an ISO 4217 code such as USD')]),
    publicUrl: z.url({ protocol: /^https?$/, error: 'public_url must be an http(s) URL' }),
    createdBy: z.string().max(200),
    note: lineOfText('note', 500),
    loyaltyCardId: z.string().default(''),
    redeemRewardIdentifier: z.string().max(200).default(''),
    /** Staff create it (a counter order): its output may come from the addresses p2p keeps for staff (decision 0022). */
    staff: z.boolean().default(false),
    /** An anonymous buyer's client address: p2p bounds the receiving addresses one client holds (decision 0022). */
    clientAddress: z.string().max(100).default(''),
  })
  .refine((order) => !(order.discountBasisPoints && order.discountMinor), {
    message: 'give discount_basis_points or discount_minor, not both',
    path: ['discountMinor'],
  })
  .refine((order) => !(order.tipBasisPoints && order.tipMinor), {
    message: 'give tip_basis_points or tip_minor, not both',
    path: ['tipMinor'],
  });

export type NewOrderInput = z.input<typeof orderSchema>;
/**
 * An order opened from a pay link (recorded with the link's id), selling a prepaid card (with the card's
 * id) or a shop's credits (with their token's id; both untaxed: stored value is taxed when it is spent,
 * decisions 0017 and 0036), inserted after `guard` in its transaction (the link's lock and use count; the
 * card's insert).
 */
export type OrderOpening = {
  payLinkId?: string;
  prepaidCardId?: string;
  creditsTokenId?: string;
  /** The payer's client address, for a pay-link order (decision 0024). */
  clientAddress?: string;
  guard?: (tx: OrderTransaction) => Promise<void>;
  /** Whether the amount already includes tax, whatever the organisation's setting (a pay link's amount is what the payer pays). */
  pricesIncludeTax?: boolean;
  /** Sold through a referral link (decision 0040): the referrer's share and where it is paid. */
  commission?: Commission;
};

/** A referrer's share of an order before tax and tip, in basis points, paid to a P2PKH address and script. */
export type Commission = { basisPoints: number; address: string; script: string; referralLinkId: string };

/** How an order is priced beyond its request: untaxed (a prepaid card's value), or with tax in its prices whatever the setting. */
export type PricingRules = { untaxed?: boolean; pricesIncludeTax?: boolean };
type ValidLine = z.output<typeof lineSchema>;

/** An order priced as it would be created now (decision 0023): what the counter's cart shows, and what createOrder records. */
export type PricedNewOrder = {
  request: z.output<typeof orderSchema>;
  loyaltyCardId: string | null;
  reward: RewardToRedeem | null;
  currency: string;
  standardRate: { jurisdiction: string; rate: string };
  pricesIncludeTax: boolean;
  priced: PricedOrder;
};

/**
 * Prices an order request exactly as createOrder does, and creates nothing: the counter's quote
 * (`POST /api/pos/orders/quote`) and createOrder share this, so the total shown is the total charged.
 */
export async function priceNewOrder(
  context: OrderContext,
  org: Org,
  input: NewOrderInput,
  rules: PricingRules = {},
): Promise<PricedNewOrder> {
  const { untaxed = false } = rules;
  const request = validate(orderSchema, input);
  const loyaltyCardId = await orderLoyaltyCard(context.prisma, org, request.loyaltyCardId);
  const reward = await rewardToRedeem(context.prisma, org, loyaltyCardId, request.redeemRewardIdentifier);
  const items = await readOrderItems(context.sql, org.id, request.lines.map((line) => line.itemId).filter(Boolean));
  const currency = orderCurrency(request.currency, request.lines, items);
  const tax = await context.taxes.of(org);
  const pricesIncludeTax = rules.pricesIncludeTax ?? tax.pricesIncludeTax;
  const standardRate = untaxed ? { jurisdiction: tax.jurisdiction, rate: '' } : standardRateOf(tax, request.lines, items);
  const lines = request.lines
    .map((line, index) => lineToPrice(line, index, items, standardRate))
    .map((line): LineToPrice => (untaxed ? { ...line, taxTreatment: 'exempt', taxRate: '0' } : line));
  const priced = priceOrder(
    lines,
    { basisPoints: request.discountBasisPoints, minor: request.discountMinor },
    { basisPoints: request.tipBasisPoints, minor: request.tipMinor },
    pricesIncludeTax,
    reward?.valueMinor ?? 0n,
  );
  if (priced.totalMinor <= 0n)
    throw new AppError('validation_failed', 'The order comes to nothing: it needs an amount to pay', { field: 'lines' });
  // Each line is bounded, but 100 lines of 10,000 units at the largest price are not: refuse here, with a
  // reason, rather than overflow the int64 columns.
  if (priced.totalMinor > MAX_PRICE_CENTS)
    throw new AppError(
      'validation_failed',
      `The order comes to ${priced.totalMinor}; an order takes at most ${MAX_PRICE_CENTS} minor units`,
      {
        field: 'lines',
      },
    );
  return { request, loyaltyCardId, reward, currency, standardRate, pricesIncludeTax, priced };
}

/**
 * Opens an order (decision 0015): prices its lines exactly, takes the satoshi rate, has p2p allocate a
 * receiving output of the organisation's wallet held for it alone while a payment to it would be settled
 * (staff's orders from the whole window, anyone else's within the anonymous cap, decision 0022), and
 * records it all. An order redeeming a loyalty reward spends the card's stamps in its insert transaction
 * (decision 0023).
 */
export async function createOrder(
  context: OrderContext,
  orgRef: Partial<OrgRef>,
  org: Org,
  input: NewOrderInput,
  opening?: OrderOpening,
): Promise<OrderWithParts> {
  if (!input.redeemRewardIdentifier || opening) return openOrder(context, orgRef, org, input, opening);
  // Orders redeeming one card's reward queue here: the one after sees the stamps spent and is refused
  // before it takes a rate and a receiving output.
  return oneRedemptionAtATime(`${org.id}:${input.loyaltyCardId ?? ''}`, () => openOrder(context, orgRef, org, input));
}

async function openOrder(
  context: OrderContext,
  orgRef: Partial<OrgRef>,
  org: Org,
  input: NewOrderInput,
  opening?: OrderOpening,
): Promise<OrderWithParts> {
  if (opening && input.redeemRewardIdentifier)
    throw new AppError('validation_failed', 'Only an order at the counter redeems a reward', { field: 'redeem_reward_identifier' });
  const { request, loyaltyCardId, reward, currency, standardRate, pricesIncludeTax, priced } = await priceNewOrder(context, org, input, {
    untaxed: Boolean(opening?.prepaidCardId || opening?.creditsTokenId),
    pricesIncludeTax: opening?.pricesIncludeTax,
  });
  const rate = await context.prices.rateFor(currency);
  const satoshis = satoshisFor(priced.totalMinor, rate.rate);
  // No order asks for more than every satoshi there is (nor could the ledger's int64 columns hold much more).
  if (satoshis > MAX_SATOSHIS_BIGINT)
    throw new AppError(
      'validation_failed',
      `The order comes to ${satoshis} satoshis at the rate ${rate.rate}, more than all ${MAX_SATOSHIS_BIGINT} there are`,
      { field: 'lines' },
    );
  const commission = opening?.commission ? commissionOf(opening.commission, priced, rate.rate) : undefined;
  const createdAt = context.now();
  const expiresAt = new Date(createdAt.getTime() + context.ttlSeconds * 1000);
  const destination = await context.p2p.allocateDestination({
    org: orgRef,
    ...orderHold(context, createdAt, expiresAt),
    staff: request.staff,
    clientAddress: request.staff ? '' : request.clientAddress || opening?.clientAddress || '',
  });

  const order = await context.orders.create(
    {
      organizationId: org.id,
      merchantHandle: org.handle,
      currency,
      subtotalMinor: priced.subtotalMinor,
      discountMinor: priced.discountMinor,
      taxMinor: priced.taxMinor,
      tipMinor: priced.tipMinor,
      totalMinor: priced.totalMinor,
      pricesIncludeTax,
      taxJurisdiction: standardRate.jurisdiction,
      standardTaxRate: standardRate.rate,
      exchangeRate: rate.rate,
      rateSource: rate.source,
      rateAt: rate.at,
      satoshis,
      address: destination.address,
      script: destination.script,
      derivationIndex: destination.derivationIndex ?? null,
      receiptMerchant: receiptMerchant(org.handle, request.publicUrl),
      linesHash: linesHashOf(priced.lines, priced.tipMinor, currency),
      note: request.note.trim(),
      createdBy: request.createdBy,
      payLinkId: opening?.payLinkId ?? null,
      clientAddress: opening?.clientAddress || null,
      prepaidCardId: opening?.prepaidCardId ?? null,
      creditsTokenId: opening?.creditsTokenId ?? null,
      ...commission,
      loyaltyCardId,
      rewardMinor: priced.rewardMinor,
      reward: reward?.reward ?? '',
      rewardStamps: reward?.stamps ?? 0,
      createdAt,
      updatedAt: createdAt,
      expiresAt,
      lines: priced.lines.map((line, position) => ({
        position,
        itemId: line.itemId,
        name: line.name,
        quantity: line.quantity,
        unitPriceMinor: line.unitPriceMinor,
        modifiers: line.modifiers.map((modifier) => ({
          modifier_id: modifier.modifierId,
          name: modifier.name,
          price_minor: modifier.priceMinor.toString(),
        })),
        discountMinor: line.discountMinor,
        taxTreatment: line.taxTreatment,
        taxRate: line.taxRate,
        taxMinor: line.taxMinor,
        totalMinor: line.totalMinor,
      })),
    },
    newOrderNumber,
    reward ? (tx) => spendReward(tx, reward, createdAt) : opening?.guard,
  );
  return order;
}

/**
 * The referrer's commission on an order (decision 0040): its basis points of what was sold, before tax and tip
 * (rounded down), and that in satoshis at the order's rate. One that comes to no satoshi is refused: the
 * covenant would pay the referrer nothing.
 */
function commissionOf(commission: Commission, priced: PricedOrder, rate: string) {
  const commissionMinor = ((priced.totalMinor - priced.taxMinor - priced.tipMinor) * BigInt(commission.basisPoints)) / 10_000n;
  const commissionSatoshis = satoshisFor(commissionMinor, rate);
  if (commissionSatoshis < 1n)
    throw new AppError('validation_failed', `A ${commission.basisPoints / 100}% commission on this order comes to nothing`, {
      field: 'commission_basis_points',
    });
  return {
    commissionMinor,
    commissionSatoshis,
    commissionAddress: commission.address,
    commissionScript: commission.script,
    referralLinkId: commission.referralLinkId,
  };
}

/** One currency per order: the one named, else the items'; keypad lines alone default to USD, as items do. */
function orderCurrency(named: string, lines: readonly ValidLine[], items: Map<string, OrderItem>): string {
  const itemCurrencies = new Set(lines.flatMap((line) => (line.itemId ? [items.get(line.itemId)?.currency ?? ''] : [])).filter(Boolean));
  const currency = named || [...itemCurrencies][0] || 'USD';
  const other = [...itemCurrencies].find((code) => code !== currency);
  if (other) {
    throw new AppError('validation_failed', `Every line of an order is in one currency: ${currency} and ${other} are both here`, {
      field: 'currency',
    });
  }
  return currency;
}

/** The jurisdiction's standard rate today when a line is standard-rated; 0 without a jurisdiction. */
function standardRateOf(tax: OrderTax, lines: readonly ValidLine[], items: Map<string, OrderItem>): { jurisdiction: string; rate: string } {
  const needed = lines.some((line) => !line.itemId || items.get(line.itemId)?.taxTreatment === 'standard');
  if (!tax.jurisdiction) return { jurisdiction: '', rate: needed ? '0' : '' };
  if (!needed) return { jurisdiction: tax.jurisdiction, rate: '' };
  if (!tax.standardRate) throw new AppError('unavailable', `books answered no rate for ${tax.jurisdiction}`);
  return { jurisdiction: tax.standardRate.code, rate: tax.standardRate.rate };
}

function lineToPrice(line: ValidLine, index: number, items: Map<string, OrderItem>, standard: { rate: string }): LineToPrice {
  const field = (name: string) => `lines[${index}].${name}`;
  if (!line.itemId) {
    if (line.unitPriceMinor <= 0n) {
      throw new AppError('validation_failed', 'A keypad line (no item_id) needs a unit_price_minor above 0', {
        field: field('unit_price_minor'),
      });
    }
    if (line.modifiers.length || line.chosenPriceMinor !== undefined) {
      throw new AppError('validation_failed', 'A keypad line takes no modifiers and no chosen price', { field: field('modifiers') });
    }
    return {
      itemId: null,
      name: line.name.trim() || KEYPAD_NAME,
      quantity: line.quantity,
      unitPriceMinor: line.unitPriceMinor,
      modifiers: [],
      taxTreatment: 'standard',
      taxRate: standard.rate || '0',
    };
  }
  const item = items.get(line.itemId);
  if (!item) throw new AppError('validation_failed', `No item ${line.itemId} in this organisation`, { field: field('item_id') });
  if (!item.available) throw new AppError('validation_failed', `"${item.name}" is not available`, { field: field('item_id') });
  if (line.unitPriceMinor || line.name) {
    throw new AppError(
      'validation_failed',
      "A menu item's line takes its name and price from the item: leave name and unit_price_minor out",
      {
        field: field('unit_price_minor'),
      },
    );
  }
  if (item.inventory !== null && item.inventory < line.quantity) {
    throw new AppError('validation_failed', `Only ${item.inventory} of "${item.name}" left`, { field: field('quantity') });
  }
  const modifiers = chosenModifiers(item, line, field('modifiers'));
  const basePrice = basePriceOf(item, line.chosenPriceMinor, field('chosen_price_minor'));
  return {
    itemId: item.id,
    name: item.name,
    quantity: line.quantity,
    unitPriceMinor: basePrice + modifiers.reduce((sum, modifier) => sum + modifier.priceMinor, 0n),
    modifiers,
    taxTreatment: item.taxTreatment,
    taxRate: item.taxTreatment === 'exempt' ? '0' : item.taxTreatment === 'reduced' ? item.taxRate : standard.rate || '0',
  };
}

/**
 * The item's price, or the payer's choice for a `minimum` (at least the price) or `top_up` (more than 0, the
 * price suggested) item. Absent, the item's price is charged; a top-up of 0 is refused rather than charged as
 * the suggested price, since the payer asked for something else.
 */
function basePriceOf(item: OrderItem, chosen: bigint | undefined, field: string): bigint {
  if (item.priceType === 'fixed') {
    if (chosen !== undefined)
      throw new AppError('validation_failed', `"${item.name}" has a fixed price: leave chosen_price_minor out`, { field });
    return item.priceCents;
  }
  if (chosen === undefined) return item.priceCents;
  if (item.priceType === 'top_up' && chosen === 0n) {
    throw new AppError(
      'validation_failed',
      `A top-up of "${item.name}" must be more than 0; leave chosen_price_minor out to charge the suggested ${item.priceCents}`,
      { field },
    );
  }
  if (item.priceType === 'minimum' && chosen < item.priceCents) {
    throw new AppError('validation_failed', `"${item.name}" costs at least ${item.priceCents}; ${chosen} is less`, { field });
  }
  return chosen;
}

function chosenModifiers(item: OrderItem, line: ValidLine, field: string) {
  const groups = new Set<string>();
  const seen = new Set<string>();
  return line.modifiers.map(({ modifierId }) => {
    const modifier = item.modifiers.find((candidate) => candidate.id === modifierId);
    if (!modifier) throw new AppError('validation_failed', `"${item.name}" has no modifier ${modifierId}`, { field });
    if (seen.has(modifier.id)) throw new AppError('validation_failed', `The modifier "${modifier.name}" is chosen twice`, { field });
    if (modifier.group && groups.has(modifier.group)) {
      throw new AppError('validation_failed', `Only one choice of "${modifier.group}" per line`, { field });
    }
    seen.add(modifier.id);
    if (modifier.group) groups.add(modifier.group);
    return { modifierId: modifier.id, name: modifier.name, priceMinor: modifier.priceCents };
  });
}
