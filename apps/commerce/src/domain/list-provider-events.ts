import type { OrgRef } from '@ctk/proto/ctk/common/v1/common';
import { orgOf, validate } from '@ctk/shared';
import { z } from 'zod';
import type { ProviderEvent } from '../data/provider-payment-repository.js';
import type { ProviderContext } from '../providers/provider-context.js';

const input = z.object({
  outcome: z.enum(['', 'applied', 'parked', 'ignored'], 'outcome must be applied, parked or ignored'),
  limit: z.number().int().min(1).max(100),
  cursor: z.union([z.literal(''), z.iso.datetime({ offset: true, error: 'cursor must be the next_cursor of the previous page' })]),
});

/**
 * The organisation's provider events, newest first: where parked events are found (decision 0019). A full
 * page's next cursor is its last event's time (the next page is received before it); the last page has none.
 */
export async function listProviderEvents(
  context: Pick<ProviderContext, 'payments'>,
  orgRef: OrgRef | undefined,
  request: { outcome: string; limit: number; cursor: string },
): Promise<{ events: ProviderEvent[]; nextCursor: string }> {
  const org = orgOf(orgRef);
  const { outcome, limit, cursor } = validate(input, { ...request, limit: request.limit || 50 });
  const events = await context.payments.list(org.id, {
    ...(outcome ? { outcome } : {}),
    ...(cursor ? { before: new Date(cursor) } : {}),
    limit,
  });
  return { events, nextCursor: events.length === limit ? events.at(-1)!.receivedAt.toISOString() : '' };
}
