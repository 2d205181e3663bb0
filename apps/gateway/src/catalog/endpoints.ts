import type { AppName } from '@ctk/shared';
import { httpBindings } from '../contract/contract-registry.js';
import { isOwnService } from '../contract/own-services.js';

/**
 * The endpoint catalog: every route of the API, with the method, path, auth scheme and role of the
 * spec (section 4), the capability it belongs to and the service that serves it. Routes, the service
 * and capability descriptors, the OpenAPI document and llms.txt are all produced from it. A service's
 * routes are declared on its RPCs in the contract (`ctk.api.v1.http`, decision 0032); the rows here are the
 * gateway's own and those of services not built yet (501).
 */
const AUTH_SCHEMES = ['none', 'bearer', 'bearer_optional', 'webhook', 'commerce_key', 'paygate_key'] as const;
export type AuthScheme = (typeof AUTH_SCHEMES)[number];
export const ROLES = ['owner', 'admin', 'staff'] as const;
export type Role = (typeof ROLES)[number];
export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export type Endpoint = {
  method: Method;
  path: string;
  auth: AuthScheme;
  role: Role | null;
  capability: string | null;
  service: AppName;
  summary: string;
  /** Not in the spec's tables. */
  extra?: true;
};

/**
 * A row of the catalog: the route as route groups key it (`'GET /api/v1/me'`), who may call it, its
 * capability, the service that serves it and its summary. Who may call it is an auth scheme, or a role:
 * a user's API key (`bearer`) with that role in the organisation the request names.
 */
type Row = [route: `${Method} ${string}`, access: AuthScheme | Role, capability: string | null, service: AppName, summary: string];

const SPEC_ROWS: Row[] = [
  // 4.1 Service information
  ['GET /api/v1', 'none', null, 'gateway', 'Service descriptor: auth schemes, roles and every endpoint'],
  ['GET /api/v1/capabilities', 'none', null, 'gateway', 'Capability descriptor: the six rungs and their capabilities'],
  [
    'GET /api/v1/orgs/:handle/capabilities',
    'staff',
    null,
    'gateway',
    'The capability map marked with what this organisation has set up and what to do next',
  ],
  // 4.3 Paymail
  ['GET /api/v1/bsvalias/id/:paymail', 'none', 'paymail', 'gateway', 'Paymail public key infrastructure (pki)'],
  ['GET /api/v1/bsvalias/public-profile/:paymail', 'none', 'paymail', 'gateway', 'Paymail public profile'],
  ['GET /api/v1/bsvalias/verifypubkey/:paymail/:pubkey', 'none', 'paymail', 'gateway', 'Paymail public key verification'],
];

/** The gateway's rows not in the spec: the paymail capability document. */
const EXTRA_ROWS: Row[] = [
  // Paymail beyond the spec's five routes (decision 0007): the capability document.
  [
    'GET /.well-known/bsvalias',
    'none',
    'paymail',
    'gateway',
    'Paymail capability document (bsvalias): where each paymail capability answers',
  ],
];

function toEndpoint([route, access, capability, service, summary]: Row, extra: boolean): Endpoint {
  const [method, path] = route.split(' ') as [Method, string];
  const role = (ROLES as readonly string[]).includes(access) ? (access as Role) : null;
  if (!role && !(AUTH_SCHEMES as readonly string[]).includes(access)) throw new Error(`${route}: no auth scheme or role ${access}`);
  const auth = role ? 'bearer' : (access as AuthScheme);
  return { method, path, auth, role, capability, service, summary, ...(extra ? { extra: true as const } : {}) };
}

export const ENDPOINTS: readonly Endpoint[] = [
  ...SPEC_ROWS.map((row) => toEndpoint(row, false)),
  ...EXTRA_ROWS.map((row) => toEndpoint(row, true)),
  // The gateway's own services (identity, access, sign-in) are served by the gateway itself.
  ...httpBindings().map(({ service, http }) =>
    toEndpoint(
      [http.route as Row[0], http.access as Row[1], http.capability || null, isOwnService(service) ? 'gateway' : service, http.summary],
      http.extra,
    ),
  ),
];

export function endpointKey(endpoint: Pick<Endpoint, 'method' | 'path'>): string {
  return `${endpoint.method} ${endpoint.path}`;
}
