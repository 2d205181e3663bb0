import type { ContractsServiceImplementation } from '@ctk/proto/ctk/contracts/v1/contracts';
import { orgOf } from '@ctk/shared';
import { getSetup } from '../domain/get-setup.js';
import { confirmTokenMint } from '../tokens/confirm-token-mint.js';
import { draftTokenMint } from '../tokens/draft-token-mint.js';
import { listTokens } from '../tokens/list-tokens.js';
import { openTokenRedemption } from '../tokens/open-token-redemption.js';
import { redeemTokens } from '../tokens/redeem-tokens.js';
import { sellCredits } from '../tokens/sell-credits.js';
import { toRedemptionAddressMessage, toRedemptionMessage } from '../tokens/redemption-message.js';
import { tokenBalance } from '../tokens/token-balance.js';
import { tokenHolders } from '../tokens/token-holders.js';
import { toTokenMessage } from '../tokens/token-message.js';
import type { TokensContext } from '../tokens/tokens-context.js';

/** ContractsService over gRPC: thin handlers calling the use cases. */
export function contractsService(tokens: TokensContext): ContractsServiceImplementation {
  return {
    async getSetup({ org }) {
      return { capabilities: await getSetup(tokens.tokens, orgOf(org)) };
    },
    async draftTokenMint({ org, ...input }) {
      return { token: toTokenMessage(await draftTokenMint(tokens, org, input)) };
    },
    async confirmTokenMint({ org, ...input }) {
      return { token: toTokenMessage(await confirmTokenMint(tokens, org, input)) };
    },
    async listTokens({ org }) {
      return { data: (await listTokens(tokens, org)).map(toTokenMessage) };
    },
    listTokenHolders: (request) => tokenHolders(tokens, request),
    async openTokenRedemption({ org, ...input }) {
      return { redemptionAddress: toRedemptionAddressMessage(await openTokenRedemption(tokens, org, input)) };
    },
    async sellCredits({ org, ...input }) {
      return { sale: await sellCredits(tokens, org, input) };
    },
    async redeemTokens({ org, ...input }) {
      return { redemption: toRedemptionMessage(await redeemTokens(tokens, org, input)) };
    },
    getTokenBalance: (request) => tokenBalance(tokens, request),
  };
}
