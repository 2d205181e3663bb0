import type { OrgRef } from '@ctk/proto/ctk/common/v1/common';
import { AppError, orgOf, validate } from '@ctk/shared';
import { z } from 'zod';
import type { TokenRedemptionAddress } from '../data/redemption-repository.js';
import { orderNumberSchema } from './order-number.js';
import { shopCredits } from './shop-credits.js';
import type { ContractsContext } from '../domain/contracts-context.js';

/** What p2p records a redemption address held for. */
export const REDEEM_PURPOSE = 'tokens.redeem';
/** A redemption address is held a day: the customer pays at the counter or online within it. */
const HOLD_MS = 86_400_000;

const openSchema = z.object({ tokenId: z.string(), orderNumber: orderNumberSchema });

/**
 * The address the shop holds for redeeming its credits against an order (docs/decisions/0036-stablecoin-and-tokens.md):
 * a fresh child of the merchant's xpub from p2p (purpose tokens.redeem), held for this order alone, so that a
 * transfer to it says which order it pays. The same order again answers the address it has. A wallet with a
 * single receiving address cannot tell orders apart: failed_precondition.
 */
export async function openTokenRedemption(
  context: ContractsContext,
  orgRef: OrgRef | undefined,
  input: unknown,
): Promise<TokenRedemptionAddress> {
  const org = orgOf(orgRef);
  const { tokenId, orderNumber } = validate(openSchema, input);
  const token = await shopCredits(context, org, tokenId);
  const existing = await context.redemptions.addressOf(token.tokenId, orderNumber);
  if (existing) return existing;
  const holdExpiresAt = new Date(context.now().getTime() + HOLD_MS);
  const hold = { org: orgRef, expiresAt: holdExpiresAt.toISOString(), purpose: REDEEM_PURPOSE };
  const destination = await context.p2p.allocateDestination({ ...hold, staff: true }, { timeoutMs: 20_000 });
  if (destination.derivationIndex === undefined)
    throw new AppError(
      'failed_precondition',
      `${org.handle} receives at a single address, which every payment shares: a redemption needs an address of its own. Register the wallet's xpub.`,
    );
  const { address, stored } = await context.redemptions.insertAddress({
    tokenId: token.tokenId,
    orderNumber,
    organizationId: org.id,
    address: destination.address,
    derivationIndex: destination.derivationIndex,
    holdExpiresAt,
    createdAt: context.now(),
  });
  // Asked twice at once: the first address stands, and this one goes back.
  if (!stored)
    await context.p2p.releaseDestination({ ...hold, derivationIndex: destination.derivationIndex }).catch((error: unknown) => {
      context.logger.warn({ err: error }, 'an unused redemption address stays held until its hold ends');
    });
  return address;
}
