import { chainClientOptions, createChainClient, orderLinesSchema } from '@ctk/chain';
import { z } from 'zod';
import type { GatewayDeps } from '../deps.js';
import { receiptVerification } from '../receipts/receipt-answers.js';
import { orderLinesExample } from '../receipts/receipt-input.js';
import { verifyReceipt } from '../receipts/verify-receipt.js';
import { route, type RouteDefinition } from './route-definition.js';

const params = z.object({
  txid: z
    .string()
    .regex(/^[0-9a-fA-F]{64}$/, 'a txid is 64 hex characters')
    .transform((txid) => txid.toLowerCase()),
});
const linesBody = z.object({ lines: orderLinesSchema }).strict();

/**
 * Receipts (not in the spec: "anyone can verify a purchase from its transaction id on any instance").
 * Public; GET verifies the transaction and its receipt, POST also checks order lines the caller has
 * against the receipt's hash (docs/decisions/0008-receipts.md).
 */
export function receiptRoutes(deps: GatewayDeps): Record<string, RouteDefinition> {
  const chain = createChainClient(chainClientOptions(deps.config));
  return {
    'GET /api/v1/receipts/:txid': route({
      params,
      answer: receiptVerification,
      errors: ['not_found', 'chain_unavailable'],
      handle: ({ params }) => verifyReceipt(chain, params.txid),
    }),
    'POST /api/v1/receipts/:txid': route({
      params,
      body: linesBody,
      bodyExample: orderLinesExample,
      answer: receiptVerification,
      errors: ['not_found', 'chain_unavailable'],
      handle: ({ params, body }) => verifyReceipt(chain, params.txid, body.lines),
    }),
  };
}
