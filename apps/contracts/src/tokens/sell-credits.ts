import { MAX_TOKEN_AMOUNT } from '@ctk/chain';
import type { OrgRef } from '@ctk/proto/ctk/common/v1/common';
import type { CreditsSale } from '@ctk/proto/ctk/contracts/v1/contracts';
import { AppError, orgOf, validate } from '@ctk/shared';
import { z } from 'zod';
import { creditsValue, shopCredits } from './shop-credits.js';
import type { ContractsContext } from '../domain/contracts-context.js';

const sellSchema = z.object({
  tokenId: z.string(),
  units: z
    .bigint({ error: 'units must be a whole number of units' })
    .min(1n, 'units must be at least 1')
    .max(MAX_TOKEN_AMOUNT, `units must be at most ${MAX_TOKEN_AMOUNT}`),
  publicUrl: z.string().default(''),
  createdBy: z.string().max(100).default(''),
});

/**
 * Sells a shop's credits (docs/decisions/0036-stablecoin-and-tokens.md, "Credits in the books"): pos opens an
 * order for their face value, untaxed, which paid posts credits.sold (the value owed to the customer, 2350).
 * The service holds no key: once the order is paid the merchant's wallet sends the units, as next_steps say.
 */
export async function sellCredits(context: ContractsContext, orgRef: OrgRef | undefined, input: unknown): Promise<CreditsSale> {
  const org = orgOf(orgRef);
  const request = validate(sellSchema, input);
  const token = await shopCredits(context, org, request.tokenId);
  if (request.units > token.supply)
    throw new AppError('validation_failed', `Only ${token.supply} ${token.symbol} were minted: units must be at most that`, {
      field: 'units',
    });
  const valueMinor = creditsValue(token, request.units, 'units');
  const { order } = await context.pos.openCreditsSale(
    {
      org: orgRef,
      tokenId: token.tokenId,
      symbol: token.symbol,
      units: request.units,
      valueMinor,
      currency: token.currency,
      publicUrl: request.publicUrl,
      createdBy: request.createdBy,
    },
    { timeoutMs: 20_000 },
  );
  return {
    tokenId: token.tokenId,
    symbol: token.symbol,
    units: request.units,
    valueMinor,
    currency: token.currency,
    order,
    nextSteps: [
      `Have the customer pay order ${order?.orderNumber} (${order?.paymentRequestUrl}).`,
      `Once it is paid, send the credits from your wallet: pnpm wallet --file <your wallet file> send-token --token ${token.tokenId} --to <the customer's address> --amount ${request.units}`,
    ],
  };
}
