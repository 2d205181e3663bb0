import { AppError } from './errors.js';

/** A tax rate as an exact fraction: "0.0725" is 725/10000. */
export type TaxFraction = { numerator: bigint; denominator: bigint };

/** One order line's amounts in minor units: net + tax = total. */
export type LineTax = { netMinor: bigint; taxMinor: bigint; totalMinor: bigint };

export type TaxLineInput = {
  /** A positive whole number. */
  quantity: bigint | number;
  /** The price of one unit in minor units, as the organisation states it (with or without tax). */
  unitPriceMinor: bigint;
};

// At most 12 decimals: every rate of a real jurisdiction needs 5 at most.
const RATE_FORMAT = /^(?:0(?:\.\d{1,12})?|1(?:\.0{1,12})?)$/;

/** Parses a decimal rate string from 0 to 1 ("0.0725") into an exact fraction; anything else is a 422. */
export function parseTaxRate(rate: string): TaxFraction {
  if (!RATE_FORMAT.test(rate)) {
    throw new AppError('validation_failed', `The tax rate "${rate}" is not a decimal string from 0 to 1 such as "0.0725"`, {
      field: 'tax_rate',
    });
  }
  const [whole = '0', fraction = ''] = rate.split('.');
  return { numerator: BigInt(whole + fraction), denominator: 10n ** BigInt(fraction.length) };
}

/**
 * The tax of one order line, rounded half up (a half minor unit goes away from zero). With prices
 * excluding tax the tax is added to quantity x unit price; with prices including tax it is the part of
 * that gross that is tax: gross x rate / (1 + rate). Exact integer arithmetic only.
 */
export function lineTax(line: TaxLineInput, rate: string, pricesIncludeTax: boolean): LineTax {
  const { numerator, denominator } = parseTaxRate(rate);
  const amount = BigInt(checkedQuantity(line.quantity)) * line.unitPriceMinor;
  if (pricesIncludeTax) {
    const taxMinor = roundHalfUp(amount * numerator, denominator + numerator);
    return { netMinor: amount - taxMinor, taxMinor, totalMinor: amount };
  }
  const taxMinor = roundHalfUp(amount * numerator, denominator);
  return { netMinor: amount, taxMinor, totalMinor: amount + taxMinor };
}

/** The order's totals: the sum of its lines, each rounded on its own. */
export function sumLineTaxes(lines: readonly LineTax[]): LineTax {
  return lines.reduce(
    (sum, line) => ({
      netMinor: sum.netMinor + line.netMinor,
      taxMinor: sum.taxMinor + line.taxMinor,
      totalMinor: sum.totalMinor + line.totalMinor,
    }),
    { netMinor: 0n, taxMinor: 0n, totalMinor: 0n },
  );
}

/** Every line's tax at one rate, and the order's totals. */
export function orderTax(lines: readonly TaxLineInput[], rate: string, pricesIncludeTax: boolean): { lines: LineTax[]; totals: LineTax } {
  const taxed = lines.map((line) => lineTax(line, rate, pricesIncludeTax));
  return { lines: taxed, totals: sumLineTaxes(taxed) };
}

/** numerator / denominator (denominator > 0) rounded to the nearest integer, a half away from zero. */
export function roundHalfUp(numerator: bigint, denominator: bigint): bigint {
  const magnitude = (2n * (numerator < 0n ? -numerator : numerator) + denominator) / (2n * denominator);
  return numerator < 0n ? -magnitude : magnitude;
}

function checkedQuantity(quantity: bigint | number): bigint | number {
  const valid = typeof quantity === 'bigint' ? quantity > 0n : Number.isSafeInteger(quantity) && quantity > 0;
  if (!valid)
    throw new AppError('validation_failed', `A line's quantity must be a positive whole number, not ${String(quantity)}`, {
      field: 'quantity',
    });
  return quantity;
}
