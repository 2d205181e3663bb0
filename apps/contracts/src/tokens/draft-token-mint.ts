import { tokenLock } from '@ctk/chain';
import type { OrgRef } from '@ctk/proto/ctk/common/v1/common';
import { AppError, orgOf, validate, type Org } from '@ctk/shared';
import type { TokenRow } from '../data/token-repository.js';
import { buildMintTransaction } from './build-mint-transaction.js';
import { newRecordId } from '../domain/record-id.js';
import { fundingCoins, type FundingCoin } from './funding-coins.js';
import { mintInputSchema } from './mint-input.js';
import type { ContractsContext } from '../domain/contracts-context.js';

/** What p2p records the owner address held for. */
export const MINT_PURPOSE = 'tokens.mint';
/** The owner address is held for the mint this long: a day to sign and broadcast it. */
const HOLD_MS = 86_400_000;

/**
 * Drafts a token's mint (docs/decisions/0036-stablecoin-and-tokens.md): the deploy+mint output paying the
 * whole supply to a fresh address of the merchant's wallet (p2p holds it for this mint, staff's share), its fee
 * from the merchant's own coins, change back to the wallet, unsigned. The service holds no key: the
 * merchant's wallet signs the draft's transaction and broadcasts it, and the mint is confirmed by its txid.
 * Nothing spendable is failed_precondition saying how to fund the wallet, before any address is held; the
 * coins of drafts not yet broadcast are left to them.
 */
export async function draftTokenMint(context: ContractsContext, orgRef: OrgRef | undefined, input: unknown): Promise<TokenRow> {
  const org = orgOf(orgRef);
  const request = validate(mintInputSchema, input);
  const { coins, changeAddress } = await fundingCoins(context, org);
  const now = context.now();
  const holdExpiresAt = new Date(now.getTime() + HOLD_MS);
  const hold = { org: orgRef, expiresAt: holdExpiresAt.toISOString(), purpose: MINT_PURPOSE };
  const owner = await context.p2p.allocateDestination({ ...hold, staff: true }, { timeoutMs: 20_000 });
  const mintLock = tokenLock({
    ownerAddress: owner.address,
    inscription: { op: 'deploy+mint', symbol: request.symbol, decimals: request.decimals, amount: request.supply },
  });
  try {
    return await context.tokens.insertDraft(org.id, now, (open) => {
      const built = buildMintTransaction({ coins: freeCoins(org, coins, open), mintLock, changeAddress, satsPerKb: context.feeSatsPerKb });
      return {
        id: newRecordId('tkd'),
        organizationId: org.id,
        orgHandle: org.handle,
        kind: request.kind,
        symbol: request.symbol,
        name: request.name,
        decimals: request.decimals,
        supply: request.supply,
        unitValueMinor: request.unitValueMinor ?? null,
        currency: request.currency || null,
        ownerAddress: owner.address,
        ownerDerivationIndex: owner.derivationIndex ?? null,
        draft: {
          transaction: built.tx.toHexEF(),
          inputs: built.inputs,
          mintVout: 0,
          feeSatoshis: built.fee,
          changeSatoshis: built.change,
          changeAddress,
        },
        holdExpiresAt,
        createdBy: request.createdBy,
        createdAt: now,
      };
    });
  } catch (error) {
    if (owner.derivationIndex !== undefined) await release(context, { ...hold, derivationIndex: owner.derivationIndex });
    throw error;
  }
}

/**
 * The coins no open draft spends: a draft awaiting its signature keeps its coins until it is broadcast (they
 * are then spent) or its hold ends, so two drafts are never both refused by the chain as double spends.
 */
function freeCoins(org: Org, coins: FundingCoin[], open: TokenRow[]): FundingCoin[] {
  const spoken = new Set(open.flatMap((token) => token.draft.inputs.map((input) => `${input.txid}:${input.vout}`)));
  const free = coins.filter((coin) => !spoken.has(`${coin.txid}:${coin.vout}`));
  if (free.length > 0) return free;
  const drafts = open.filter((token) =>
    token.draft.inputs.some((input) => coins.some((c) => c.txid === input.txid && c.vout === input.vout)),
  );
  throw new AppError(
    'failed_precondition',
    `Every spendable coin of ${org.handle}'s wallet pays for a mint drafted already and not yet broadcast (${drafts.map((d) => d.id).join(', ')}): ` +
      'sign and broadcast that draft, or send a little more BSV to the wallet, then draft again.',
    { reason: 'coins_in_drafts', drafts: drafts.map((d) => ({ id: d.id, expires_at: d.holdExpiresAt.toISOString() })) },
  );
}

/** Gives back the owner address of a mint that could not be drafted; a failure only leaves it held until its hold ends. */
async function release(
  context: ContractsContext,
  hold: { org: OrgRef | undefined; expiresAt: string; purpose: string; derivationIndex: number },
) {
  await context.p2p.releaseDestination(hold).catch((error: unknown) => {
    context.logger.warn({ err: error }, 'an unused mint address stays held until its hold ends');
  });
}
