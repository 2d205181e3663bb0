import { AppError, type Org } from '@ctk/shared';
import type { TokenRow } from '../data/token-repository.js';
import { mintedToken } from './minted-token.js';
import type { ContractsContext } from '../domain/contracts-context.js';

/** A shop's credits token with its face value (decision 0036, "Credits in the books"). */
export type ShopCredits = TokenRow & { tokenId: string; unitValueMinor: bigint; currency: string };

/**
 * The shop's own active credits token, by id: another shop's token is not found (its staff redeem nothing of it),
 * and a membership or community token is not spent against orders here (failed_precondition), nor credits
 * minted without a face value (before credits had one).
 */
export async function shopCredits(context: ContractsContext, org: Org, tokenId: string): Promise<ShopCredits> {
  const token = await mintedToken(context, tokenId);
  if (token.organizationId !== org.id) throw new AppError('not_found', `${org.handle} minted no token ${tokenId}.`, { field: 'token_id' });
  if (token.kind !== 'credits')
    throw new AppError(
      'failed_precondition',
      `${token.symbol} is a ${token.kind} token: only credits are sold and redeemed against orders (a membership is held, not spent).`,
      { kind: token.kind },
    );
  if (token.unitValueMinor === null || !token.currency || !token.tokenId)
    throw new AppError(
      'failed_precondition',
      `${token.symbol} was minted without a face value: mint credits with unit_value_minor and currency.`,
      {
        kind: token.kind,
      },
    );
  return { ...token, tokenId: token.tokenId, unitValueMinor: token.unitValueMinor, currency: token.currency };
}

/** The most an order takes (pos's bound): credits worth more pay no order and are sold in no order. */
export const MAX_ORDER_MINOR = 10n ** 12n;

/** What `units` of the credits are worth, in minor units of their currency; refused beyond what any order takes. */
export function creditsValue(token: ShopCredits, units: bigint, field: string): bigint {
  const value = units * token.unitValueMinor;
  if (value > MAX_ORDER_MINOR)
    throw new AppError(
      'validation_failed',
      `${units} ${token.symbol} are worth ${value} ${token.currency} minor units, more than an order takes (${MAX_ORDER_MINOR})`,
      { field },
    );
  return value;
}
