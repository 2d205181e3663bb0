import type { OrgRef } from '@ctk/proto/ctk/common/v1/common';
import { orgOf, validate } from '@ctk/shared';
import { z } from 'zod';
import type { ProviderAccount } from '../data/provider-account-repository.js';
import type { ProviderContext } from '../providers/provider-context.js';
import { PROVIDERS } from '../providers/providers.js';
import { sealSecret, secretOwner } from '../providers/sealed-secret.js';

/** How long the secret a change replaces still verifies events: the provider may sign with it for a while. */
export const PREVIOUS_SECRET_HOURS = 24;

const input = z.object({
  provider: z.enum(PROVIDERS, `provider must be one of ${PROVIDERS.join(', ')}`),
  // Stripe's are `whsec_` and 32+ characters of base64; any printable secret of a provider is taken.
  webhookSecret: z
    .string()
    .min(16, 'webhook_secret must be at least 16 characters')
    .max(255, 'webhook_secret must be at most 255 characters')
    .regex(/^[\x21-\x7e]+$/, 'webhook_secret must be printable ASCII without spaces'),
});

/**
 * An admin sets the organisation's webhook secret for a provider: sealed, never answered nor logged. The
 * secret it replaces keeps verifying events for PREVIOUS_SECRET_HOURS, so a change is not a gap.
 */
export async function setProviderSecret(
  context: ProviderContext,
  orgRef: OrgRef | undefined,
  request: { provider: string; webhookSecret: string },
): Promise<ProviderAccount> {
  const org = orgOf(orgRef);
  const { provider, webhookSecret } = validate(input, request);
  const now = context.now();
  const secretSealed = sealSecret(await context.secretsKey(), secretOwner(org.id, provider), webhookSecret);
  const previousValidUntil = new Date(now.getTime() + PREVIOUS_SECRET_HOURS * 3600_000);
  return context.accounts.set(org.id, provider, { secretSealed, secretLast4: webhookSecret.slice(-4) }, now, previousValidUntil);
}
