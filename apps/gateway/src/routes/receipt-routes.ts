import { rpcRoute, type RpcRouteOptions } from '../contract/rpc-route.js';
import type { GatewayDeps } from '../deps.js';
import type { RouteDefinition } from './route-definition.js';

/**
 * Receipts (not in the spec: "anyone can verify a purchase from its transaction id on any instance").
 * Public; the p2p service reads the chain. GET verifies the transaction and its receipt, POST also checks
 * order lines the caller has against the receipt's hash (docs/decisions/0008-receipts.md). p2p says what a
 * txid must be, and names the field it refuses.
 */
export function receiptRoutes(deps: GatewayDeps): Record<string, RouteDefinition> {
  const verify: RpcRouteOptions<'p2p'> = { rpc: ['p2p', 'verifyReceipt'], params: ['txid'], errors: ['not_found', 'chain_unavailable'] };
  return {
    'GET /api/v1/receipts/:txid': rpcRoute(deps.services, verify),
    'POST /api/v1/receipts/:txid': rpcRoute(deps.services, {
      ...verify,
      body: true,
      fill: { fields: [], from: () => ({ checkLines: true }) },
    }),
  };
}
