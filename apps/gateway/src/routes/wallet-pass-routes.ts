import { AppError } from '@ctk/shared';
import { messageDesc } from '../contract/contract-registry.js';
import { toJson } from '../contract/json-mapping.js';
import { messageSchema } from '../contract/message-schema.js';
import { rpcParams } from '../contract/request-params.js';
import type { GatewayDeps } from '../deps.js';
import { getWalletPass } from '../wallet-passes/get-wallet-pass.js';
import { route, type RouteDefinition } from './route-definition.js';

/** Only the shape of a wallet pass request (decision 0017, "Wallet passes"): which card, by its id. */
const walletPassParams = rpcParams(['pos', 'getLoyaltyPass'], ['card_id'], 'path');
/** The Google pass is cards.proto's GoogleWalletPass; the Apple pass a file, described here. */
const GOOGLE_PASS = messageDesc('ctk.pos.v1.GoogleWalletPass');
const PKPASS = 'application/vnd.apple.pkpass';

/**
 * Wallet passes of loyalty cards, made by pos (decision 0017, "Wallet passes"): the card's holder or its
 * organisation's staff take it as an Apple .pkpass or a Google Wallet save link. A key is needed (401
 * without one); anyone else's answer is 404, as for an unknown card. The pass's QR is the card's
 * identifier, its bearer secret: the answers are never stored (no-store, as on every route that reads a key).
 */
export function walletPassRoutes(deps: GatewayDeps): Record<string, RouteDefinition> {
  return {
    'GET /api/v1/passes/coffee/:card_id/apple': route({
      user: true,
      params: walletPassParams,
      files: {
        [PKPASS]: {
          description:
            'The .pkpass (a zip): pass.json (a store card: the stamps out of stamps_for_reward, the reward, the rewards ready, and a QR of ' +
            "the card's identifier), icon and logo images, manifest.json (each file's SHA-1) and signature (a detached PKCS#7 of the " +
            'manifest by the pass certificate). Open it on an iPhone or a Mac to add it to Apple Wallet.',
          binary: true,
        },
      },
      answerHeaders: {
        'content-disposition': {
          description: "An attachment named after the shop's handle",
          example: 'attachment; filename="blue-bottle-cafe-loyalty-card.pkpass"',
        },
      },
      errors: ['not_found'],
      handle: async ({ params, request, reply }) => {
        const { pass, handle } = await getWalletPass(deps, request, params.card_id, 'apple');
        if (pass.body.length === 0) throw new AppError('internal', 'pos answered an Apple pass without its file');
        reply.type(PKPASS).header('content-disposition', `attachment; filename="${handle}-loyalty-card.pkpass"`);
        return Buffer.from(pass.body);
      },
    }),
    'GET /api/v1/passes/coffee/:card_id/google': route({
      user: true,
      params: walletPassParams,
      answer: messageSchema(GOOGLE_PASS, 'answer'),
      errors: ['not_found'],
      handle: async ({ params, request }) => {
        const { pass } = await getWalletPass(deps, request, params.card_id, 'google');
        if (!pass.saveUrl || !pass.jwt) throw new AppError('internal', 'pos answered a Google pass without its save link');
        return toJson(GOOGLE_PASS, { ...pass }) as never;
      },
    }),
  };
}
