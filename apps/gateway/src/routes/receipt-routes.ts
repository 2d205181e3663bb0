import type { VerifyReceiptResponse } from '@ctk/proto/ctk/p2p/v1/p2p';
import type { ErrorCode } from '@ctk/shared';
import { z } from 'zod';
import { exampleOf } from '../contract/contract-registry.js';
import { fromJson, toJson } from '../contract/json-mapping.js';
import type { GatewayDeps } from '../deps.js';
import { orderLinesBody, RECEIPT, receiptVerification, VERIFY_RECEIPT } from '../receipts/receipt-answers.js';
import { route, type RouteDefinition } from './route-definition.js';
import { callOptions } from './service-call.js';

/** Only the shape: p2p says what a txid must be, and names the field it refuses. */
const receiptParams = z.object({ txid: z.string() });

/** p2p's verification as the API answers it; the lines it checked are the ones the caller sent. */
function receiptView(answer: VerifyReceiptResponse, lines: unknown[] | null) {
  return { ...toJson(RECEIPT, answer as never), lines: { status: answer.linesStatus, items: lines } };
}

/**
 * Receipts (not in the spec: "anyone can verify a purchase from its transaction id on any instance").
 * Public; the p2p service reads the chain. GET verifies the transaction and its receipt, POST also checks
 * order lines the caller has against the receipt's hash (docs/decisions/0008-receipts.md).
 */
export function receiptRoutes(deps: GatewayDeps): Record<string, RouteDefinition> {
  const verify = { params: receiptParams, answer: receiptVerification, errors: ['not_found', 'chain_unavailable'] as ErrorCode[] };
  return {
    'GET /api/v1/receipts/:txid': route({
      ...verify,
      handle: async ({ params, request }) =>
        receiptView(await deps.services.p2p.verifyReceipt({ txid: params.txid }, callOptions(request)), null) as never,
    }),
    'POST /api/v1/receipts/:txid': route({
      ...verify,
      body: orderLinesBody,
      bodyExample: exampleOf(VERIFY_RECEIPT) as never,
      handle: async ({ params, body, request }) => {
        const verifying = { ...fromJson(VERIFY_RECEIPT, { ...body, txid: params.txid }), checkLines: true };
        const answer = await deps.services.p2p.verifyReceipt(verifying as never, callOptions(request));
        return receiptView(answer, body.lines) as never;
      },
    }),
  };
}
