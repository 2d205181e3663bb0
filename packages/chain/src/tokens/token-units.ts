/**
 * Whole token units as a decimal for people: `dec` places after the point (1250 units with 2 decimals are
 * "12.50"). Exact for any amount: the units are a bigint and the point is placed in the digits.
 */
export function formatTokenUnits(units: bigint, decimals: number): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(decimals + 1, '0');
  const shown = decimals === 0 ? digits : `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`;
  return negative ? `-${shown}` : shown;
}
