import type { GatewayDeps } from '../deps.js';
import { bip270Payment } from './bip270-payment.js';
import type { RouteDefinition } from './route-definition.js';

/**
 * Referral covenants (decision 0040), by hand: the buyer's wallet pays a checkout's covenant with a BIP270
 * Payment, as it pays an order. Links and checkouts are declared in the contract.
 */
export function referralRoutes(deps: GatewayDeps): Record<string, RouteDefinition> {
  return {
    'POST /api/v1/referral-checkouts/:id/payment': bip270Payment(['contracts', 'payReferralCheckout'], 'id', (id, payment, call) =>
      deps.services.contracts.payReferralCheckout({ id, ...payment }, call),
    ),
  };
}
