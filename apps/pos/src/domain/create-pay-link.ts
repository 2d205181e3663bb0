import { randomUUID } from 'node:crypto';
import { AppError, lineOfText, type Org, validate } from '@ctk/shared';
import { z } from 'zod';
import type { PayLinkWithUses } from '../data/pay-link-repository.js';
import type { PayLinkContext } from '../pay-links/pay-link-context.js';
import { signTerms } from '../pay-links/pay-link-terms.js';
import { MAX_PRICE_CENTS } from './create-item.js';
import { requireRate } from '../rates/require-rate.js';

const MAX_USES = 1_000_000n;
// A link that outlives its merchant's prices helps nobody; five years bounds what a signature promises.
const MAX_LIFETIME_MS = 5 * 366 * 86_400_000;

const minor = (field: string) =>
  z.bigint().min(0n, `${field} must not be negative`).max(MAX_PRICE_CENTS, `${field} must be at most ${MAX_PRICE_CENTS}`);

const linkSchema = z
  .object({
    currency: z.string().regex(/^[A-Z]{3}$/, 'currency must be an ISO 4217 code such as USD'),
    amountMinor: minor('amount_minor'),
    minMinor: minor('min_minor'),
    maxMinor: minor('max_minor'),
    memo: lineOfText('memo', 200).refine((memo) => memo.length > 0, 'memo is required: it is what the payer sees and the order line'),
    maxUses: z.bigint().min(0n, 'max_uses must not be negative').max(MAX_USES, `max_uses must be at most ${MAX_USES}`),
    expiresAt: z.union([z.literal(''), z.iso.datetime({ offset: true, error: 'expires_at must be an RFC 3339 time' })]),
    publicUrl: z.url({ protocol: /^https?$/, error: 'public_url must be an http(s) URL' }),
    createdBy: z.string().max(200),
  })
  .superRefine((link, context) => {
    const fixed = link.amountMinor > 0n;
    const bounded = link.minMinor > 0n || link.maxMinor > 0n;
    if (fixed === bounded) {
      context.addIssue({
        code: 'custom',
        path: ['amountMinor'],
        message: 'give amount_minor (a fixed amount) or min_minor and max_minor (the payer chooses), not both and not neither',
      });
    } else if (bounded && !(link.minMinor > 0n && link.maxMinor >= link.minMinor)) {
      context.addIssue({ code: 'custom', path: ['maxMinor'], message: 'min_minor must be at least 1 and max_minor at least min_minor' });
    }
  });

export type NewPayLinkInput = z.input<typeof linkSchema>;

/** Makes a pay link for the organisation and signs its terms with pos's key. */
export async function createPayLink(context: PayLinkContext, org: Org, input: NewPayLinkInput): Promise<PayLinkWithUses> {
  const request = validate(linkSchema, input);
  await requireRate(context.orders.prices, request.currency);
  const now = context.orders.now();
  const expiresAt = request.expiresAt ? new Date(request.expiresAt) : null;
  if (expiresAt && expiresAt <= now) throw new AppError('validation_failed', 'expires_at must be in the future', { field: 'expires_at' });
  if (expiresAt && expiresAt.getTime() - now.getTime() > MAX_LIFETIME_MS) {
    throw new AppError('validation_failed', 'expires_at must be within five years', { field: 'expires_at' });
  }
  const terms = {
    id: randomUUID(),
    organizationId: org.id,
    merchantHandle: org.handle,
    currency: request.currency,
    amountMinor: request.amountMinor,
    minMinor: request.minMinor,
    maxMinor: request.maxMinor,
    memo: request.memo,
    maxUses: request.maxUses,
    expiresAt,
  };
  const signature = signTerms(await context.signingKey(), terms);
  return context.links.create({ ...terms, signature, createdBy: request.createdBy, createdAt: now });
}
