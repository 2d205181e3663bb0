import { ROLES_SATISFYING } from '../auth/types.js';
import { SERVICE_DESCRIPTION } from '../catalog/capabilities.js';
import { ENDPOINTS, type AuthScheme } from '../catalog/endpoints.js';

export const AUTH_SCHEMES: Record<AuthScheme, string> = {
  none: 'No credentials.',
  bearer: "A user API key: Authorization: Bearer <API_KEY>. The key acts as its user, with that user's organisation roles.",
  bearer_optional: 'Authorization: Bearer <API_KEY>, optional. An endpoint that acts on a user answers 401 without one.',
  webhook:
    'Provider signature (decision 0019): Stripe-Signature (card provider) or X-Wallet-Provider-Signature (wallet provider): t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>." and the raw body> under the organisation\'s secret for that provider, the organisation named in the URL (?org=<handle>); several v1 may be sent; 300 s tolerance; a replayed delivery is refused, a duplicate event id changes nothing.',
  commerce_key: "The merchant's commerce public key: x-commerce-key: <COMMERCE_PUBLIC_KEY>. Publishable, scoped to one organisation.",
  paygate_key: 'A payment-gate account key: Authorization: Bearer <PAYGATE_API_KEY>. Not a user API key.',
};

/** `GET /api/v1` (spec 2.3), as the contract's ServiceDescriptor takes it (proto/ctk/gateway/v1/descriptors.proto). */
export function serviceDescriptor() {
  return {
    name: 'Commerce Toolkit',
    version: 'v1',
    whoami: 'GET /api/v1/me',
    auth: AUTH_SCHEMES,
    description: SERVICE_DESCRIPTION,
    endpoints: ENDPOINTS,
    roles: ROLES_SATISFYING,
  };
}
