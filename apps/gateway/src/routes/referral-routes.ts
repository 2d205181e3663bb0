import { rpcParams } from '../contract/request-params.js';
import type { GatewayDeps } from '../deps.js';
import { answerOrigin } from '../origin/answer-origin.js';
import { bip270Payment } from './bip270-payment.js';
import { qrAnswer, qrByteFiles } from './qr-answer.js';
import { route, type RouteDefinition } from './route-definition.js';
import { callOptions } from './service-call.js';

/**
 * Referral covenants (decision 0040), by hand: the buyer's wallet pays a checkout's covenant with a BIP270
 * Payment, as it pays an order, and scans its payment URI as a QR code. Links and checkouts are declared in the
 * contract.
 */
export function referralRoutes(deps: GatewayDeps): Record<string, RouteDefinition> {
  const publicUrl = deps.config.CTK_PUBLIC_URL;
  return {
    'GET /api/v1/referral-checkouts/:id/qr': route({
      params: rpcParams(['contracts', 'getReferralCheckoutQr'], ['id'], 'path'),
      query: rpcParams(['contracts', 'getReferralCheckoutQr'], ['format'], 'query'),
      files: qrByteFiles('the checkout’s payment URI'),
      errors: ['not_found'],
      handle: async ({ params, query, request, reply }) => {
        const qr = { id: params.id, publicUrl: answerOrigin(request, publicUrl), format: query.format ?? '' };
        return qrAnswer(reply, await deps.services.contracts.getReferralCheckoutQr(qr, callOptions(request)));
      },
    }),
    'POST /api/v1/referral-checkouts/:id/payment': bip270Payment(['contracts', 'payReferralCheckout'], 'id', (id, payment, call) =>
      deps.services.contracts.payReferralCheckout({ id, ...payment }, call),
    ),
  };
}
