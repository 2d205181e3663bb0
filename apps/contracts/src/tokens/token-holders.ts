import type { ListTokenHoldersRequest, ListTokenHoldersResponse } from '@ctk/proto/ctk/contracts/v1/contracts';
import { validate } from '@ctk/shared';
import { z } from 'zod';
import { mintedToken } from './minted-token.js';
import type { ContractsContext } from '../domain/contracts-context.js';

const pageSchema = z.object({
  // proto3 sends 0 for "not given": a page is then the most one may be.
  limit: z
    .number()
    .int()
    .transform((limit) => limit || 100)
    .pipe(z.number().min(1, 'limit must be between 1 and 100').max(100, 'limit must be between 1 and 100')),
  offset: z.number().int().min(0, 'offset must be 0 or more').max(1_000_000, 'offset must be at most 1000000'),
});

/**
 * Who holds a token minted here, from the token indexer: each address and the units its valid unspent outputs
 * hold, most first, a page at a time (1Sat's holders). The indexer decides validity, not consensus (decision 0036).
 */
export async function tokenHolders(context: ContractsContext, request: ListTokenHoldersRequest): Promise<ListTokenHoldersResponse> {
  const { limit, offset } = validate(pageSchema, { limit: request.limit, offset: request.offset });
  const token = await mintedToken(context, request.tokenId);
  const holders = await context.chain.tokenHolders(request.tokenId, { limit, offset });
  return {
    tokenId: request.tokenId,
    symbol: token.symbol,
    decimals: token.decimals,
    holders: holders.map((holder) => ({ address: holder.address, balance: holder.amount })),
  };
}
