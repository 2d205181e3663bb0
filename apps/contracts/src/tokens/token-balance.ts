import { networkAddress } from '@ctk/chain';
import type { GetTokenBalanceRequest, GetTokenBalanceResponse } from '@ctk/proto/ctk/contracts/v1/contracts';
import { mintedToken } from './minted-token.js';
import type { ContractsContext } from '../domain/contracts-context.js';

/**
 * What an address holds of a token minted here, as the token indexer counts it (confirmed and pending), and
 * whether it holds any: the check a membership gate makes. `confirmed` is there for a gate that waits for it.
 */
export async function tokenBalance(context: ContractsContext, request: GetTokenBalanceRequest): Promise<GetTokenBalanceResponse> {
  const token = await mintedToken(context, request.tokenId);
  const address = networkAddress(request.address, context.chain.network, 'address');
  const balance = await context.chain.tokenBalance(address, request.tokenId);
  const total = balance.confirmed + balance.pending;
  return {
    tokenId: request.tokenId,
    address,
    symbol: token.symbol,
    decimals: token.decimals,
    balance: total,
    confirmed: balance.confirmed,
    holds: total > 0n,
  };
}
