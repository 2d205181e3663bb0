import type { ProviderAccount, ReceiveProviderEventResponse } from '@ctk/proto/ctk/commerce/v1/commerce';
import { AppError } from '@ctk/shared';
import type { z } from 'zod';
import type { providerAccount, webhookReceipt } from './provider-answers.js';

type Provider = 'card-provider' | 'wallet-provider';
type Outcome = 'applied' | 'parked' | 'ignored';

export function providerAccountView(account: ProviderAccount | undefined, webhookUrl: string): z.output<typeof providerAccount> {
  if (!account) throw new AppError('internal', 'commerce answered without the account');
  return {
    provider: account.provider as Provider,
    secret_last4: account.secretLast4,
    webhook_url: webhookUrl,
    previous_secret_valid_until: account.previousValidUntil || null,
    updated_at: account.updatedAt,
  };
}

export function webhookReceiptView(received: ReceiveProviderEventResponse): z.output<typeof webhookReceipt> {
  return {
    received: true,
    event_id: received.eventId,
    event_type: received.eventType,
    outcome: received.outcome as Outcome,
    duplicate: received.duplicate,
    reason: received.reason || null,
  };
}
