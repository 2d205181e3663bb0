/** A JSON number when it is exact in JavaScript, else the integer as a string (never a rounded number). */
export function exactInteger(value: bigint): number | string {
  return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value.toString();
}
