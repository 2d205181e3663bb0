import { AppError } from '@ctk/shared';

/** What a refund takes back, in minor units (tax and tip its parts) and satoshis. */
export type RefundFigures = { amountMinor: bigint; taxMinor: bigint; tipMinor: bigint; satoshis: bigint };

/** What the order took in bitcoin: the whole that refunds are shares of. */
export type RefundBase = RefundFigures;

/** A line of the order as a refund reads it, and the units of it that live refunds already give back. */
export type RefundableLine = { quantity: bigint; totalMinor: bigint; refundedQuantity: bigint };

/** What is asked for: the rest of the order, lines (index and units), or an amount. */
export type RefundAsk =
  { kind: 'whole' } | { kind: 'lines'; lines: { line: number; quantity: bigint | undefined }[] } | { kind: 'amount'; amountMinor: bigint };

/** The figures a new refund takes, and the units of each line it gives back. */
export type NewRefund = RefundFigures & { lines: { line: number; quantity: bigint }[] };

const sum = (values: RefundFigures[], key: keyof RefundFigures) => values.reduce((total, value) => total + value[key], 0n);

/** `part` of `whole`'s `of`, rounded down: exactly `of` when the part is the whole. */
const share = (of: bigint, part: bigint, whole: bigint) => (whole <= 0n || part >= whole ? of : (of * part) / whole);

/**
 * A new refund's figures (decision 0033), all in integers: its amount from what is asked (the lines' totals
 * in proportion to their units, with the lines' share of the tip; the rest of the order; or the amount), then
 * its tax, tip and satoshis as the order's in proportion to what live refunds take back once it is added,
 * less what they already take: rounded down on the way, so that refunds of a whole order add up exactly to
 * what it took. `live` are the order's pending (unexpired) and paid refunds. Refused: nothing asked, a line
 * that is not the order's or refunded past its units (422), and an amount past what is left (409
 * refund_exceeds_paid, with what is left).
 */
export function refundFigures(base: RefundBase, orderLines: RefundableLine[], live: RefundFigures[], ask: RefundAsk): NewRefund {
  const taken = { amountMinor: sum(live, 'amountMinor'), taxMinor: sum(live, 'taxMinor'), tipMinor: sum(live, 'tipMinor') };
  const left = base.amountMinor - taken.amountMinor;
  const { amountMinor, lines } = amountAsked(base, orderLines, ask, left);
  if (amountMinor <= 0n && ask.kind === 'whole') throw exceeds(left, base);
  if (amountMinor <= 0n) throw new AppError('validation_failed', 'A refund gives back at least 1 minor unit', { field: 'amount_minor' });
  if (amountMinor > left) throw exceeds(left, base, amountMinor);
  const after = taken.amountMinor + amountMinor;
  const whole = after === base.amountMinor;
  const part = (key: 'taxMinor' | 'tipMinor' | 'satoshis', already: bigint) => {
    const due = (whole ? base[key] : share(base[key], after, base.amountMinor)) - already;
    const most = base[key] - already;
    return due < 0n ? 0n : due > most ? most : due;
  };
  let taxMinor = part('taxMinor', taken.taxMinor);
  let tipMinor = part('tipMinor', taken.tipMinor);
  // Rounding over cancelled refunds may leave a unit more than the amount holds: the amount bounds its parts.
  if (taxMinor > amountMinor) taxMinor = amountMinor;
  if (taxMinor + tipMinor > amountMinor) tipMinor = amountMinor - taxMinor;
  const satoshis = part('satoshis', sum(live, 'satoshis'));
  if (satoshis <= 0n) {
    throw new AppError('validation_failed', `A refund of ${amountMinor} is less than a satoshi at the order's rate: refund more`, {
      field: 'amount_minor',
    });
  }
  return { amountMinor, taxMinor, tipMinor, satoshis, lines };
}

function amountAsked(base: RefundBase, orderLines: RefundableLine[], ask: RefundAsk, left: bigint) {
  if (ask.kind === 'whole') {
    // The rest of every line goes back with it.
    const lines = orderLines
      .map((line, index) => ({ line: index, quantity: line.quantity - line.refundedQuantity }))
      .filter((line) => line.quantity > 0n);
    return { amountMinor: left, lines };
  }
  if (ask.kind === 'amount') return { amountMinor: ask.amountMinor, lines: [] };
  const goodsMinor = orderLines.reduce((total, line) => total + line.totalMinor, 0n);
  const seen = new Set<number>();
  let goods = 0n;
  const lines = ask.lines.map(({ line, quantity }, at) => {
    const field = `lines[${at}]`;
    const order = orderLines[line];
    if (!order) {
      throw new AppError('validation_failed', `${field}.line ${line} is not a line of the order (it has ${orderLines.length}, from 0)`, {
        field: `${field}.line`,
      });
    }
    if (seen.has(line)) throw new AppError('validation_failed', `${field}.line ${line} is named twice`, { field: `${field}.line` });
    seen.add(line);
    const rest = order.quantity - order.refundedQuantity;
    const units = quantity ?? rest;
    if (units <= 0n || units > rest) {
      throw new AppError(
        rest > 0n ? 'validation_failed' : 'refund_exceeds_paid',
        rest > 0n
          ? `${field}.quantity must be from 1 to ${rest}: the units of line ${line} not yet refunded`
          : `Line ${line} is already refunded, or reserved by a pending refund`,
        { field: `${field}.quantity`, ...(rest > 0n ? {} : { refundable_minor: left.toString() }) },
      );
    }
    // The line's total in proportion to its units, rounded down, its last units taking the rest.
    goods +=
      share(order.totalMinor, order.refundedQuantity + units, order.quantity) -
      share(order.totalMinor, order.refundedQuantity, order.quantity);
    return { line, quantity: units };
  });
  // Every line's every unit: the rest of the order, tip and rounding included.
  const allLines = orderLines.every(
    (order, index) => order.refundedQuantity + (lines.find((l) => l.line === index)?.quantity ?? 0n) >= order.quantity,
  );
  if (allLines) return { amountMinor: left, lines };
  // The lines' share of the tip, so that refunding every line is refunding the whole order.
  const tip = base.tipMinor > 0n && goodsMinor > 0n ? (base.tipMinor * goods) / goodsMinor : 0n;
  return { amountMinor: goods + tip, lines };
}

/** 409 refund_exceeds_paid, with what is left to refund. */
function exceeds(left: bigint, base: RefundBase, amountMinor?: bigint): AppError {
  return new AppError(
    'refund_exceeds_paid',
    left > 0n && amountMinor !== undefined
      ? `A refund of ${amountMinor} would take back more than the order took: ${left} of ${base.amountMinor} is left to refund`
      : `The order's ${base.amountMinor} is already refunded, or reserved by pending refunds: nothing is left to refund`,
    { refundable_minor: left.toString() },
  );
}
