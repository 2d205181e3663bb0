import type { Role } from '../catalog/endpoints.js';

/** Who is calling, as the auth scheme of the route established it. */
export type Caller =
  | { kind: 'anonymous' }
  | { kind: 'user'; userId: string; apiKeyId: string }
  | { kind: 'paygate'; accountId: string; keyId: string; organizationId: string }
  | { kind: 'commerce'; organizationId: string }
  | { kind: 'webhook'; provider: WebhookProvider; organizationId: string; signature: string };

export type WebhookProvider = 'card-provider' | 'wallet-provider';

/** The organisation named in the path, resolved once, with the caller's role in it when there is one. */
export type OrgContext = {
  id: string;
  handle: string;
  name: string;
  role: Role | null;
};

/** What the gateway's own services (access, identity) need of an organisation: which one, and the caller's role in it. */
export type AccessOrg = Pick<OrgContext, 'id' | 'handle' | 'role'>;

/** The spec's table: which roles satisfy a required role. */
export const ROLES_SATISFYING: Record<Role, Role[]> = {
  owner: ['owner'],
  admin: ['owner', 'admin'],
  staff: ['owner', 'admin', 'staff'],
};
