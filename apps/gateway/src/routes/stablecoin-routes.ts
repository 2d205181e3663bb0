import { rpcParams } from '../contract/request-params.js';
import type { GatewayDeps } from '../deps.js';
import { qrAnswer } from './qr-answer.js';
import { route, type RouteDefinition } from './route-definition.js';
import { callOptions } from './service-call.js';

/** The address's QR code: bytes only (no JSON), as a ticket's. */
const INTENT_QR_FILES = {
  'image/svg+xml': { description: "The QR code of the intent's address as SVG", binary: true as const },
  'image/png': { description: 'The same QR code as a PNG image (512 pixels)', binary: true as const },
};

/**
 * Stablecoin payment intents (decision 0036), by hand where the contract cannot say it: the intent's address as
 * a QR code, bytes not JSON, which the counter screen, the Buy button's dialog and the back office show for the
 * customer's wallet to scan. Public, as the intent's read is: the id is random and names nothing else. The
 * intent's create, read and settle are declared in the contract.
 */
export function stablecoinRoutes(deps: GatewayDeps): Record<string, RouteDefinition> {
  return {
    'GET /api/v1/stablecoin/intents/:payment_id/qr': route({
      params: rpcParams(['commerce', 'getStablecoinIntentQr'], ['payment_id'], 'path'),
      query: rpcParams(['commerce', 'getStablecoinIntentQr'], ['format'], 'query'),
      files: INTENT_QR_FILES,
      errors: ['not_found'],
      handle: async ({ params, query, request, reply }) => {
        const qr = await deps.services.commerce.getStablecoinIntentQr(
          { paymentId: params.payment_id, format: query.format ?? '' },
          callOptions(request),
        );
        // The address never changes for the intent: a browser may keep the image while the customer pays.
        reply.header('cache-control', 'private, max-age=3600');
        return qrAnswer(reply, qr);
      },
    }),
  };
}
