import { AppError, invalidInput } from '@ctk/shared';
import type { FastifyRequest } from 'fastify';
import type { Endpoint } from '../catalog/endpoints.js';
import { handleProblem } from '../identity/organization-fields.js';
import type { BeforeLookup, Credentials } from './credentials.js';
import { refuseRepeatedCredentials } from '../plugins/request-refusals.js';
import { ROLES_SATISFYING, type OrgContext } from './types.js';
import { verifyWebhook } from './webhook-signature.js';

export type AuthDeps = {
  credentials: Credentials;
  /** Spends one of the client address's credential lookups (a key not in memory): 429 when they are used up. */
  lookups: (request: FastifyRequest) => Promise<void>;
};

/**
 * Establishes `request.caller` by the endpoint's one auth scheme (spec section 5), then, for endpoints
 * with a role, resolves the organisation the request names and checks the caller's role in it.
 */
export async function authenticate(request: FastifyRequest, endpoint: Endpoint, deps: AuthDeps): Promise<void> {
  refuseRepeatedCredentials(request);
  const beforeLookup = () => deps.lookups(request);
  switch (endpoint.auth) {
    case 'none':
      break;
    case 'bearer':
    case 'bearer_optional': {
      const token = bearerToken(request);
      if (token === undefined) {
        if (endpoint.auth === 'bearer')
          throw new AppError('unauthenticated', 'This endpoint needs an API key: send Authorization: Bearer <API_KEY>.');
        break;
      }
      const key = await deps.credentials.userKey(token, beforeLookup);
      if (!key) throw new AppError('invalid_api_key', 'The API key is not valid, or has been revoked or has expired.');
      request.caller = { kind: 'user', ...key };
      break;
    }
    case 'paygate_key': {
      const token = bearerToken(request);
      if (token === undefined)
        throw new AppError('unauthenticated', 'This endpoint needs a payment-gate key: send Authorization: Bearer <PAYGATE_API_KEY>.');
      const key = await deps.credentials.paygateKey(token, beforeLookup);
      if (!key)
        throw new AppError(
          'invalid_api_key',
          'The payment-gate key is not valid or has been revoked (a user API key is not a payment-gate key).',
        );
      request.caller = { kind: 'paygate', ...key };
      break;
    }
    case 'commerce_key':
      await authenticateCommerceKey(request, deps.credentials, beforeLookup);
      break;
    case 'webhook': {
      // The organisation is the URL's (?org=<handle>); commerce checks the signature with its secret (decision 0019).
      const delivery = await verifyWebhook(request, deps.credentials);
      request.caller = { kind: 'webhook', provider: delivery.provider, organizationId: delivery.org.id, signature: delivery.signature };
      request.org = { ...delivery.org, role: null };
      break;
    }
  }
  if (endpoint.role) await authorizeRole(request, endpoint.role, deps.credentials);
}

/** The user behind the request, for endpoints that act on a user: 401 without one (spec 7.1). */
export function requireUser(request: FastifyRequest): { userId: string; apiKeyId: string } {
  const caller = request.caller;
  if (caller.kind !== 'user') throw new AppError('unauthenticated', 'This endpoint acts on a user: send Authorization: Bearer <API_KEY>.');
  return caller;
}

/** The organisation resolved for this request (endpoints with a role or a commerce key). */
export function requireOrg(request: FastifyRequest): OrgContext {
  if (!request.org) throw new AppError('internal', 'No organisation resolved for this route');
  return request.org;
}

function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (header === undefined) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) throw new AppError('invalid_api_key', 'Malformed Authorization header: expected "Bearer <key>".');
  return match[1];
}

async function authenticateCommerceKey(request: FastifyRequest, credentials: Credentials, beforeLookup: BeforeLookup) {
  const key = request.headers['x-commerce-key'];
  if (typeof key !== 'string' || key === '')
    throw new AppError('unauthenticated', "This endpoint needs the merchant's commerce public key in the x-commerce-key header.");
  const org = await credentials.commerceKey(key, beforeLookup);
  if (!org) throw new AppError('invalid_api_key', 'The commerce key is not valid or has been rotated.');
  const handle = (request.params as Record<string, string | undefined>).merchant_handle;
  if (handle !== org.handle) throw new AppError('forbidden', 'This commerce key belongs to another merchant.');
  request.caller = { kind: 'commerce', organizationId: org.id };
  request.org = { ...org, role: null };
}

/**
 * Resolves the organisation (by default the one the request names: see orgHandleOf), checks the
 * caller's role in it and sets `request.org`: 404 for no such organisation, 403 without the role. Routes
 * without a role in the catalog that still act for an organisation (POST /api/v1/items) call it with the handle they chose.
 */
export async function authorizeRole(
  request: FastifyRequest,
  required: NonNullable<Endpoint['role']>,
  credentials: Credentials,
  named?: string,
): Promise<void> {
  const caller = request.caller;
  if (caller.kind !== 'user') throw new AppError('unauthenticated', 'This endpoint needs an API key.');
  const handle = named ?? orgHandleOf(request);
  const org = await credentials.org(handle);
  if (!org) throw new AppError('not_found', `No organisation with handle "${handle}".`);
  const role = await credentials.role(caller.userId, org.id);
  if (!role || !ROLES_SATISFYING[required].includes(role)) {
    throw new AppError(
      'forbidden',
      `This needs the ${required} role in "${handle}"${role ? `; you are ${role}` : '; you are not a member'}.`,
    );
  }
  request.org = { ...org, role };
}

/**
 * The organisation a role applies to: the path's :handle (or :shop_id), else `org_handle` in the body or
 * query. Its format is checked here, before any lookup: text that cannot be a handle (a NUL, upper case)
 * never reaches the database.
 */
function orgHandleOf(request: FastifyRequest): string {
  const params = request.params as Record<string, string | undefined>;
  const body = request.body as Record<string, unknown> | undefined;
  const query = request.query as Record<string, unknown> | undefined;
  const [field, handle] =
    params.handle !== undefined
      ? ['handle', params.handle]
      : params.shop_id !== undefined
        ? ['shop_id', params.shop_id]
        : ['org_handle', body?.org_handle ?? query?.org_handle];
  if (typeof handle !== 'string' || handle === '') {
    throw new AppError('validation_failed', 'Name the organisation this acts on with "org_handle" (in the body, or the query for GET).', {
      field: 'org_handle',
    });
  }
  const problem = handleProblem(handle);
  if (problem) throw invalidInput([{ field, message: problem }], field === 'org_handle' ? 'input' : 'path');
  return handle;
}
