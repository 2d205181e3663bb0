import type { CreateGateResourceRequest, CreateGateResourceResponse, GateGrant } from '@ctk/proto/ctk/p2p/v1/p2p';
import { AppError, comparablePath, freeText, hasDotSegment, MAX_SATOSHIS_BIGINT, validate } from '@ctk/shared';
import { z } from 'zod';
import { addGateResource, findLiveResourcePaths } from '../data/gate-resource-repository.js';
import type { PrismaClient } from '../generated/prisma/client.js';
import { accountOf } from './gate-account.js';
import { gateResourceMessage } from './gate-messages.js';

/** How many live priced resources one account may have: every /check reads them all. */
export const MAX_RESOURCES = 200;

// C0 and C1 controls, and the bidirectional overrides that make a path display as another (as text fields refuse them).
const CONTROL = /[\p{Cc}\u202a-\u202e\u2066-\u2069]/u;

const CALLS_RULE = 'grant.calls must be a whole number from 1 to 1,000,000';
const SECONDS_RULE = 'grant.seconds must be from 1 to 31,536,000 (a year)';

const resourceSchema = z.object({
  method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', '*'], { error: 'method must be GET, POST, PUT, PATCH, DELETE or *' }),
  path: z
    .string()
    .max(512, 'path must be at most 512 characters')
    .regex(
      /^\/[^?#*\s\p{Cc}\u202a-\u202e\u2066-\u2069]*(\/\*)?$/u,
      'path must start with "/", without query, fragment, spaces or control characters; "*" only as a trailing "/*"',
    )
    // Requests are compared with escapes decoded (comparablePath), and one with a dot segment is refused: such a path never matches.
    .refine((path) => !CONTROL.test(comparablePath(path)), 'path must not hold control characters, even percent-encoded')
    .refine(
      (path) => !hasDotSegment(path),
      'path must not hold "." or ".." segments (in any spelling) or a backslash: no request path does',
    ),
  priceSatoshis: z
    .bigint()
    .min(1n, 'price_satoshis must be at least 1')
    .max(MAX_SATOSHIS_BIGINT, 'price_satoshis is more than all bitcoin'),
  grant: z.discriminatedUnion(
    'kind',
    [
      z.object({
        kind: z.literal('calls'),
        calls: z.number().int().min(1, CALLS_RULE).max(1_000_000, CALLS_RULE),
      }),
      z.object({
        kind: z.literal('window'),
        seconds: z.number().int().min(1, SECONDS_RULE).max(31_536_000, SECONDS_RULE),
      }),
    ],
    { error: 'grant.kind must be calls or window' },
  ),
  description: freeText('description', 500),
});

/** The grant as the API spells it ({kind: "calls", calls} or {kind: "window", seconds}), so a refusal names its field. */
function grantOf(grant: GateGrant | undefined) {
  const kind = grant?.kind;
  if (kind?.$case === 'calls') return { kind: kind.$case, calls: kind.value.calls };
  if (kind?.$case === 'window') return { kind: kind.$case, seconds: kind.value.seconds };
  return { kind: '' };
}

/**
 * A price on a URL pattern and method for the account, and what one payment buys. One live price per
 * method and path: a second is 409 (two racing creates may both land; the more recent then prices).
 */
export async function createGateResource(prisma: PrismaClient, request: CreateGateResourceRequest): Promise<CreateGateResourceResponse> {
  const account = accountOf(request.account);
  const { account: _account, grant, ...fields } = request;
  const resource = validate(resourceSchema, { ...fields, grant: grantOf(grant) }, 'priced resource');
  const live = await findLiveResourcePaths(prisma, account.id);
  // Two spellings of one path (case, escapes, slashes) price the same requests: one price for them.
  const path = comparablePath(resource.path);
  if (live.some((other) => other.method === resource.method && comparablePath(other.path) === path))
    throw new AppError(
      'already_exists',
      `${resource.method} ${resource.path} already has a price: remove it first (DELETE /api/v1/402/resources/:id).`,
      { field: 'path' },
    );
  if (live.length >= MAX_RESOURCES)
    throw new AppError('failed_precondition', `An account has at most ${MAX_RESOURCES} priced resources; remove one first.`);
  const created = await addGateResource(prisma, {
    accountId: account.id,
    organizationId: account.org.id,
    method: resource.method,
    path: resource.path,
    priceSatoshis: resource.priceSatoshis,
    grantKind: resource.grant.kind,
    grantCalls: resource.grant.kind === 'calls' ? resource.grant.calls : null,
    grantSeconds: resource.grant.kind === 'window' ? resource.grant.seconds : null,
    description: resource.description,
  });
  return { resource: gateResourceMessage(created) };
}
