import { z } from 'zod';
import { isTokenId, MAX_TOKEN_AMOUNT, MAX_TOKEN_DECIMALS, type TokenInscription, type TokenOp } from './token-types.js';

/**
 * The inscription's JSON, with the keys in js-1sat-ord's order so that our outputs and its outputs are the
 * same bytes: `{"p","op","sym","icon","amt","dec"}` for a deploy+mint (`dec` left out when 0, `icon` when
 * none) and `{"p","op","amt","id"}` for a transfer.
 */
export function tokenJson(inscription: TokenInscription): string {
  if (inscription.op === 'transfer') {
    return JSON.stringify({ p: 'bsv-20', op: 'transfer', amt: inscription.amount.toString(), id: inscription.tokenId });
  }
  return JSON.stringify({
    p: 'bsv-20',
    op: 'deploy+mint',
    sym: inscription.symbol,
    ...(inscription.icon === undefined ? {} : { icon: inscription.icon }),
    amt: inscription.amount.toString(),
    ...(inscription.decimals ? { dec: inscription.decimals.toString() } : {}),
  });
}

/** A positive whole number of units as 1Sat writes it: digits, no leading zero, at most 2^63 - 1. */
const amount = z
  .string()
  .regex(/^[1-9]\d{0,18}$/)
  .transform((value) => BigInt(value))
  .refine((value) => value <= MAX_TOKEN_AMOUNT);
const decimals = z
  .string()
  .regex(/^(0|[1-9]\d?)$/)
  .transform(Number)
  .refine((value) => value <= MAX_TOKEN_DECIMALS);

const transferJson = z.object({ p: z.literal('bsv-20'), op: z.literal('transfer'), amt: amount, id: z.string().refine(isTokenId) });
const deployJson = z.object({
  p: z.literal('bsv-20'),
  op: z.literal('deploy+mint'),
  amt: amount,
  sym: z.string().optional(),
  dec: decimals.optional(),
});

export type ReadTokenJson = { op: TokenOp; amount: bigint; tokenId?: string; symbol?: string; decimals?: number };

/** The token operation in an inscription's bytes (UTF-8 JSON), or undefined when they are not one this package reads. */
export function readTokenJson(bytes: number[]): ReadTokenJson | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(bytes)));
  } catch {
    return undefined;
  }
  const transfer = transferJson.safeParse(parsed);
  if (transfer.success) return { op: 'transfer', amount: transfer.data.amt, tokenId: transfer.data.id };
  const deploy = deployJson.safeParse(parsed);
  if (deploy.success)
    return {
      op: 'deploy+mint',
      amount: deploy.data.amt,
      ...(deploy.data.sym === undefined ? {} : { symbol: deploy.data.sym }),
      decimals: deploy.data.dec ?? 0,
    };
  return undefined;
}
