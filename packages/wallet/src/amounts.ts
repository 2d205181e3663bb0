import { MAX_TOKEN_AMOUNT } from '@ctk/chain';
import { AppError } from '@ctk/shared';

const SATS_PER_BSV = 100_000_000n;

/** A BIP21 amount (BSV, a decimal with at most 8 places) in satoshis, exactly: no floating point. */
export function bsvToSatoshis(amount: string): number {
  const match = /^(\d+)(?:\.(\d{1,8}))?$/.exec(amount);
  if (!match) throw new AppError('bad_request', `The amount "${amount}" is not a BSV amount (a decimal with at most 8 places).`);
  const satoshis = BigInt(match[1] as string) * SATS_PER_BSV + BigInt((match[2] ?? '').padEnd(8, '0'));
  return checkSatoshis(satoshis, amount);
}

/** A --amount in satoshis: a positive integer. */
export function parseSatoshis(value: string): number {
  if (!/^\d+$/.test(value)) throw new AppError('bad_request', `The amount must be a whole number of satoshis, not "${value}".`);
  return checkSatoshis(BigInt(value), value);
}

function checkSatoshis(satoshis: bigint, shown: string): number {
  if (satoshis <= 0n || satoshis > BigInt(Number.MAX_SAFE_INTEGER))
    throw new AppError('bad_request', `The amount ${shown} is out of range.`);
  return Number(satoshis);
}

/** Token units (`--amount`, `stablecoin-faucet <units>`): a positive whole number, kept exact as a bigint. */
export function parseTokenUnits(value: string): bigint {
  if (!/^\d{1,19}$/.test(value) || BigInt(value) < 1n || BigInt(value) > MAX_TOKEN_AMOUNT)
    throw new AppError('bad_request', `A token amount is a whole number of units from 1 to ${MAX_TOKEN_AMOUNT}, not "${value}".`);
  return BigInt(value);
}
