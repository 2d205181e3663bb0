import type { OrgRef } from '@ctk/proto/ctk/common/v1/common';
import { AppError, orgOf } from '@ctk/shared';
import type { ProviderEvent } from '../data/provider-payment-repository.js';
import type { ProviderContext } from '../providers/provider-context.js';
import { applyParked } from './receive-provider-event.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * An admin applies a parked provider event now (decision 0019), exactly as its delivery would be applied:
 * its checkout may exist now, or pos answer now. Idempotent: an event no longer parked (applied, by this
 * call, a concurrent one or a redelivery; or ignored) is answered as it is; one that still cannot be applied
 * stays parked with the reason of this attempt. Another organisation's event is not found.
 */
export async function applyProviderEvent(
  context: ProviderContext,
  orgRef: OrgRef | undefined,
  input: { id: string; publicUrl: string },
): Promise<ProviderEvent> {
  const org = orgOf(orgRef);
  const event = UUID.test(input.id) ? await context.payments.byId(org.id, input.id) : null;
  if (!event) throw new AppError('not_found', 'No provider event with this id in this organisation');
  if (event.outcome !== 'parked') return event;
  return applyParked(context, { org, orgRef: orgRef as OrgRef }, event, input.publicUrl);
}
