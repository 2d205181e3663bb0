import { TOKEN_ID_PATTERN } from '@ctk/chain';
import { AppError } from '@ctk/shared';
import type { TokenRow } from '../data/token-repository.js';
import type { ContractsContext } from '../domain/contracts-context.js';

/**
 * An active token minted on this instance, by its id. The public token routes answer for these only: any
 * other token's holdings are the indexer's to tell (the chain passthrough reaches it), not this shop's.
 */
export async function mintedToken(context: ContractsContext, tokenId: string): Promise<TokenRow> {
  if (!TOKEN_ID_PATTERN.test(tokenId))
    throw new AppError('validation_failed', 'token_id must be a token id: <txid>_<vout>', { field: 'token_id' });
  const token = await context.tokens.byTokenId(tokenId);
  if (!token) throw new AppError('not_found', `No token ${tokenId} was minted on this instance.`, { field: 'token_id' });
  return token;
}
