import { requireOrg } from '../auth/authenticate.js';
import type { GatewayDeps } from '../deps.js';
import { capabilityDescriptor } from '../descriptors/capability-descriptor.js';
import { personalizedCapabilities } from '../descriptors/personalized-capabilities.js';
import { capabilityDescriptorAnswer, personalizedCapabilitiesAnswer, serviceDescriptorAnswer } from '../descriptors/descriptor-answers.js';
import { serviceDescriptor } from '../descriptors/service-descriptor.js';
import { route, type RouteDefinition } from './route-definition.js';

/** Service information (spec 4.1 but /me): the descriptors. `implemented` is complete once the app is built. */
export function serviceInfoRoutes(deps: GatewayDeps, implemented: ReadonlySet<string>): Record<string, RouteDefinition> {
  const service = serviceDescriptor();
  let capabilities: ReturnType<typeof capabilityDescriptor> | undefined;
  return {
    'GET /api/v1': route({ answer: serviceDescriptorAnswer, handle: async () => service }),
    'GET /api/v1/capabilities': route({
      answer: capabilityDescriptorAnswer,
      handle: async () => (capabilities ??= capabilityDescriptor(implemented)),
    }),
    'GET /api/v1/orgs/:handle/capabilities': route({
      answer: personalizedCapabilitiesAnswer,
      handle: ({ request }) => personalizedCapabilities(deps, request, requireOrg(request), implemented),
    }),
  };
}
