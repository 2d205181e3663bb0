import { requireOrg } from '../auth/authenticate.js';
import { messageAnswer } from '../contract/message-answer.js';
import type { GatewayDeps } from '../deps.js';
import { capabilityDescriptor } from '../descriptors/capability-descriptor.js';
import { personalizedCapabilities } from '../descriptors/personalized-capabilities.js';
import { serviceDescriptor } from '../descriptors/service-descriptor.js';
import { route, type RouteDefinition } from './route-definition.js';

/** The answers: messages of the gateway's contract (proto/ctk/gateway/v1/descriptors.proto), from the catalog. */
const SERVICE_DESCRIPTOR = messageAnswer('ctk.gateway.v1.ServiceDescriptor');
const CAPABILITY_DESCRIPTOR = messageAnswer('ctk.gateway.v1.CapabilityDescriptor');
const PERSONALIZED_CAPABILITIES = messageAnswer('ctk.gateway.v1.PersonalizedCapabilities');

/** Service information (spec 4.1 but /me): the descriptors. `implemented` is complete once the app is built. */
export function serviceInfoRoutes(deps: GatewayDeps, implemented: ReadonlySet<string>): Record<string, RouteDefinition> {
  const service = SERVICE_DESCRIPTOR.json(serviceDescriptor());
  let capabilities: object | undefined;
  return {
    'GET /api/v1': route({ answer: SERVICE_DESCRIPTOR.schema, handle: async () => service }),
    'GET /api/v1/capabilities': route({
      answer: CAPABILITY_DESCRIPTOR.schema,
      handle: async () => (capabilities ??= CAPABILITY_DESCRIPTOR.json(capabilityDescriptor(implemented))),
    }),
    'GET /api/v1/orgs/:handle/capabilities': route({
      answer: PERSONALIZED_CAPABILITIES.schema,
      handle: async ({ request }) =>
        PERSONALIZED_CAPABILITIES.json(await personalizedCapabilities(deps, request, requireOrg(request), implemented)),
    }),
  };
}
