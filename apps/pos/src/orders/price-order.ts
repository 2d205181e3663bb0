import { AppError, lineTax, roundHalfUp } from '@ctk/shared';

export type TaxTreatment = 'standard' | 'reduced' | 'exempt';
export type ChosenModifier = { modifierId: string; name: string; priceMinor: bigint };

/** A line ready to price: its unit price already includes its modifiers; its rate is the one that applies. */
export type LineToPrice = {
  itemId: string | null;
  name: string;
  quantity: bigint;
  unitPriceMinor: bigint;
  modifiers: ChosenModifier[];
  taxTreatment: TaxTreatment;
  taxRate: string;
};

export type PricedLine = LineToPrice & { discountMinor: bigint; taxMinor: bigint; totalMinor: bigint };

/** At most one of each: basis points (1000 = 10%) or an amount in minor units. */
export type Adjustment = { basisPoints: number; minor: bigint };

export type PricedOrder = {
  lines: PricedLine[];
  subtotalMinor: bigint;
  discountMinor: bigint;
  /** A loyalty reward taken on the order (decision 0017): its value, at most what is left after the discount. */
  rewardMinor: bigint;
  taxMinor: bigint;
  tipMinor: bigint;
  totalMinor: bigint;
};

const BASIS_POINTS = 10_000n;

/**
 * Prices an order exactly (decision 0015): the discount (and a loyalty reward, `rewardValueMinor`, capped at
 * what the discount leaves) is shared among the lines in proportion to their amounts by largest remainder,
 * so the shares add up to it; each line is taxed with `lineTax` on its discounted amount at its own rate.
 * The tip, one rule for the counter's quote and the order: a percentage is taken on the goods after
 * discount and before tax (with prices that include tax, the lines' totals less their tax), rounded half
 * up; an amount is that amount; the tip is not taxed. total = the lines' totals + the tip.
 */
export function priceOrder(
  lines: readonly LineToPrice[],
  discount: Adjustment,
  tip: Adjustment,
  pricesIncludeTax: boolean,
  rewardValueMinor = 0n,
): PricedOrder {
  const amounts = lines.map((line) => line.quantity * line.unitPriceMinor);
  const subtotalMinor = amounts.reduce((sum, amount) => sum + amount, 0n);
  const discountMinor = discount.basisPoints ? roundHalfUp(subtotalMinor * BigInt(discount.basisPoints), BASIS_POINTS) : discount.minor;
  if (discountMinor > subtotalMinor) {
    throw new AppError('validation_failed', `The discount (${discountMinor}) is more than the order's subtotal (${subtotalMinor})`, {
      field: 'discount_minor',
    });
  }
  const rewardMinor = rewardValueMinor < subtotalMinor - discountMinor ? rewardValueMinor : subtotalMinor - discountMinor;
  const shares = shareByLargestRemainder(discountMinor + rewardMinor, amounts);
  const priced = lines.map((line, index): PricedLine => {
    const discountShare = shares[index] ?? 0n;
    const taxed = lineTax({ quantity: 1, unitPriceMinor: (amounts[index] ?? 0n) - discountShare }, line.taxRate, pricesIncludeTax);
    return { ...line, discountMinor: discountShare, taxMinor: taxed.taxMinor, totalMinor: taxed.totalMinor };
  });
  const linesTotal = priced.reduce((sum, line) => sum + line.totalMinor, 0n);
  const taxMinor = priced.reduce((sum, line) => sum + line.taxMinor, 0n);
  const beforeTax = linesTotal - taxMinor;
  const tipMinor = tip.basisPoints ? roundHalfUp(beforeTax * BigInt(tip.basisPoints), BASIS_POINTS) : tip.minor;
  return {
    lines: priced,
    subtotalMinor,
    discountMinor,
    rewardMinor,
    taxMinor,
    tipMinor,
    totalMinor: linesTotal + tipMinor,
  };
}

/**
 * `total` shared in proportion to `weights`: each gets the floor of its exact share, and the units left
 * go one each to the largest remainders (ties to the earlier line), so the shares add up to `total`.
 */
export function shareByLargestRemainder(total: bigint, weights: readonly bigint[]): bigint[] {
  const sum = weights.reduce((acc, weight) => acc + weight, 0n);
  if (sum === 0n || total === 0n) return weights.map(() => 0n);
  const shares = weights.map((weight) => (total * weight) / sum);
  const remainders = weights.map((weight, index) => ({ index, remainder: (total * weight) % sum }));
  let left = total - shares.reduce((acc, share) => acc + share, 0n);
  remainders.sort((a, b) => (a.remainder === b.remainder ? a.index - b.index : a.remainder > b.remainder ? -1 : 1));
  for (const { index } of remainders) {
    if (left === 0n) break;
    shares[index] = (shares[index] ?? 0n) + 1n;
    left -= 1n;
  }
  return shares;
}
