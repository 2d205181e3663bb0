import type { GatewayDeps } from '../deps.js';
import { getWalletPass } from '../wallet-passes/get-wallet-pass.js';
import { APPLE_PASS_FILES, APPLE_PASS_HEADERS, googleWalletPass, PKPASS_MEDIA_TYPE } from '../wallet-passes/wallet-pass-answers.js';
import { walletPassParams } from '../wallet-passes/wallet-pass-input.js';
import { applePassView, googlePassView } from '../wallet-passes/wallet-pass-view.js';
import { route, type RouteDefinition } from './route-definition.js';

/**
 * Wallet passes of loyalty cards, made by pos (decision 0017, "Wallet passes"): the card's holder or its
 * organisation's staff take it as an Apple .pkpass or a Google Wallet save link. A key is needed (401
 * without one); anyone else's answer is 404, as for an unknown card. The pass's QR is the card's
 * identifier, its bearer secret: the answers are never stored (no-store).
 */
export function walletPassRoutes(deps: GatewayDeps): Record<string, RouteDefinition> {
  return {
    'GET /api/v1/passes/coffee/:card_id/apple': route({
      user: true,
      params: walletPassParams,
      files: APPLE_PASS_FILES,
      answerHeaders: APPLE_PASS_HEADERS,
      errors: ['not_found'],
      handle: async ({ params, request, reply }) => {
        const { pass, handle } = await getWalletPass(deps, request, params.card_id, 'apple');
        reply
          .type(PKPASS_MEDIA_TYPE)
          .header('content-disposition', `attachment; filename="${handle}-loyalty-card.pkpass"`)
          .header('cache-control', 'no-store');
        return applePassView(pass);
      },
    }),
    'GET /api/v1/passes/coffee/:card_id/google': route({
      user: true,
      params: walletPassParams,
      answer: googleWalletPass,
      errors: ['not_found'],
      handle: async ({ params, request, reply }) => {
        const { pass } = await getWalletPass(deps, request, params.card_id, 'google');
        reply.header('cache-control', 'no-store');
        return googlePassView(pass);
      },
    }),
  };
}
