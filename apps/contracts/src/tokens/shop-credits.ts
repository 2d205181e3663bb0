import { AppError, type Org } from '@ctk/shared';
import type { TokenRow } from '../data/token-repository.js';
import { mintedToken } from './minted-token.js';
import type { TokensContext } from './tokens-context.js';

/**
 * The shop's own active credits token, by id: another shop's token is not found (its staff redeem nothing of it),
 * and a membership or community token is not spent against orders here (failed_precondition).
 */
export async function shopCredits(context: TokensContext, org: Org, tokenId: string): Promise<TokenRow> {
  const token = await mintedToken(context, tokenId);
  if (token.organizationId !== org.id) throw new AppError('not_found', `${org.handle} minted no token ${tokenId}.`, { field: 'token_id' });
  if (token.kind !== 'credits')
    throw new AppError(
      'failed_precondition',
      `${token.symbol} is a ${token.kind} token: only credits are redeemed against orders (a membership is held, not spent).`,
      { kind: token.kind },
    );
  return token;
}
