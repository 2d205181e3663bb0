import type { GatewayDeps } from '../deps.js';
import { receiptVerification } from '../receipts/receipt-answers.js';
import { orderLinesBody, orderLinesExample, receiptParams } from '../receipts/receipt-input.js';
import { receiptView } from '../receipts/receipt-view.js';
import { route, type RouteDefinition } from './route-definition.js';
import { callOptions } from './service-call.js';

/**
 * Receipts (not in the spec: "anyone can verify a purchase from its transaction id on any instance").
 * Public; the p2p service reads the chain. GET verifies the transaction and its receipt, POST also checks
 * order lines the caller has against the receipt's hash (docs/decisions/0008-receipts.md).
 */
export function receiptRoutes(deps: GatewayDeps): Record<string, RouteDefinition> {
  return {
    'GET /api/v1/receipts/:txid': route({
      params: receiptParams,
      answer: receiptVerification,
      errors: ['not_found', 'chain_unavailable'],
      handle: async ({ params, request }) =>
        receiptView(await deps.services.p2p.verifyReceipt({ txid: params.txid }, callOptions(request))),
    }),
    'POST /api/v1/receipts/:txid': route({
      params: receiptParams,
      body: orderLinesBody,
      bodyExample: orderLinesExample,
      answer: receiptVerification,
      errors: ['not_found', 'chain_unavailable'],
      handle: async ({ params, body, request }) => {
        const lines = body.lines.map((line) => ({
          itemId: line.item_id ?? undefined,
          name: line.name,
          quantity: BigInt(line.quantity),
          unitPriceMinor: BigInt(line.unit_price_minor),
          currency: line.currency,
        }));
        const answer = await deps.services.p2p.verifyReceipt({ txid: params.txid, checkLines: true, lines }, callOptions(request));
        return receiptView(answer, body.lines);
      },
    }),
  };
}
