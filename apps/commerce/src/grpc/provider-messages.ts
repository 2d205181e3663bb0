import type { ProviderAccount as AccountMessage, ProviderEvent as EventMessage } from '@ctk/proto/ctk/commerce/v1/commerce';
import type { ProviderAccount } from '../data/provider-account-repository.js';
import type { ProviderEvent } from '../data/provider-payment-repository.js';

/** An account as the admin sees it: never the secret, its last 4 characters only. */
export function toProviderAccountMessage(account: ProviderAccount): AccountMessage {
  return {
    provider: account.provider,
    secretLast4: account.secretLast4,
    updatedAt: account.updatedAt.toISOString(),
    previousValidUntil: account.previousValidUntil?.toISOString(),
  };
}

export function toProviderEventMessage(event: ProviderEvent): EventMessage {
  return {
    id: event.id,
    provider: event.provider,
    eventId: event.eventId,
    eventType: event.eventType,
    outcome: event.outcome,
    // None is unset (null in the JSON), not ''.
    reason: event.reason || undefined,
    checkoutToken: event.checkoutToken || undefined,
    receivedAt: event.receivedAt.toISOString(),
  };
}
