/** An amount paid towards an order and the parts of it that are the order's tax and tip. */
export type Shares = { amountMinor: bigint; taxMinor: bigint; tipMinor: bigint };

export const NO_SHARES: Shares = { amountMinor: 0n, taxMinor: 0n, tipMinor: 0n };

/**
 * The tax and tip a part payment of `use` carries (decision 0017): of what the order still owes (its total
 * less earlier uses) and the tax and tip still unposted, the use takes `tax x use / owed` and
 * `tip x use / owed` rounded down, so the payment that completes the order takes what remains and every
 * order's revenue, tax and tip add up exactly across its entries. Rounding down could leave the rest more
 * tax and tip than it pays (a tiny order, most of it tax and tip): then the use takes more of them, so
 * that what remains is never less revenue than nothing.
 */
export function useShares(order: Shares, earlier: Shares, use: bigint): Shares {
  const owed = order.amountMinor - earlier.amountMinor;
  const taxLeft = order.taxMinor - earlier.taxMinor;
  const tipLeft = order.tipMinor - earlier.tipMinor;
  const revenueLeft = owed - taxLeft - tipLeft;
  let tax = (taxLeft * use) / owed;
  let tip = (tipLeft * use) / owed;
  let excess = use - tax - tip - revenueLeft;
  if (excess > 0n) {
    const more = excess < taxLeft - tax ? excess : taxLeft - tax;
    tax += more;
    excess -= more;
    tip += excess;
  }
  return { amountMinor: use, taxMinor: tax, tipMinor: tip };
}

/** What the rest of an order carries once its live card uses are taken off. */
export function restOf(order: Shares, used: Shares): Shares {
  return {
    amountMinor: order.amountMinor - used.amountMinor,
    taxMinor: order.taxMinor - used.taxMinor,
    tipMinor: order.tipMinor - used.tipMinor,
  };
}

export function plus(a: Shares, b: Shares): Shares {
  return { amountMinor: a.amountMinor + b.amountMinor, taxMinor: a.taxMinor + b.taxMinor, tipMinor: a.tipMinor + b.tipMinor };
}
