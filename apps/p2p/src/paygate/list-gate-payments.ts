import { addressOfScript } from '@ctk/chain';
import type { ListGatePaymentsRequest, ListGatePaymentsResponse } from '@ctk/proto/ctk/p2p/v1/p2p';
import { cursorPosition, pageLimit, takePage, validate } from '@ctk/shared';
import { pageGatePayments } from '../data/gate-payment-repository.js';
import { accountOf } from './gate-account.js';
import type { GateDeps } from './gate-deps.js';
import { gatePaymentMessage } from './gate-messages.js';

const limitSchema = pageLimit(50, 200);

/** The account's gate payments, newest first, with the address each paid (a child of the organisation's xpub). */
export async function listGatePayments(deps: GateDeps, request: ListGatePaymentsRequest): Promise<ListGatePaymentsResponse> {
  const account = accountOf(request.account);
  const limit = validate(limitSchema, request.limit, 'limit');
  const after = cursorPosition(request.cursor);
  const rows = await pageGatePayments(deps.prisma, account.id, limit + 1, after);
  const { page, nextCursor } = takePage(rows, limit, (row) => ({ at: row.createdAt, id: row.id }));
  return { payments: page.map((row) => gatePaymentMessage(row, addressOfScript(row.script, deps.chain.network))), nextCursor };
}
