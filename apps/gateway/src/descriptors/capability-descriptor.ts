import { RUNGS, type Capability } from '../catalog/capabilities.js';
import { ENDPOINTS, endpointKey } from '../catalog/endpoints.js';

/** How a note that a capability (or part of it) is not built on this instance begins. */
export const NOT_BUILT = 'Not built yet on this instance';

/**
 * The back office's page of a capability: `/o/:handle/<its id, dashes for underscores>` (apps/back-office
 * shows each; the gateway serves them, serve-back-office.ts).
 */
export const capabilityPath = (capability: Pick<Capability, 'id'>) => `/o/:handle/${capability.id.replaceAll('_', '-')}`;

/** The catalog's endpoints of a capability. */
export const endpointsOf = (capability: Capability) => ENDPOINTS.filter((e) => e.capability === capability.id);

/**
 * `GET /api/v1/capabilities` (spec 2.2), as the contract's CapabilityDescriptor takes it
 * (proto/ctk/gateway/v1/descriptors.proto): rungs in step order, each capability with its endpoints.
 */
export function capabilityDescriptor(implemented: ReadonlySet<string>) {
  return {
    description: 'Six rungs, each working on its own: climb as far as your business needs.',
    rungs: RUNGS.map((rung) => ({
      ...rung,
      capabilities: rung.capabilities.map((capability) => ({
        ...capability,
        path: capabilityPath(capability),
        endpoints: endpointsOf(capability),
        note: capabilityNote(capability, implemented),
      })),
    })),
    llmsTxt: '/llms.txt',
    personalized:
      'GET /api/v1/orgs/:handle/capabilities (bearer, staff): this map marked with what your organisation has set up and what to do next',
  };
}

/**
 * What this instance does of a capability, where that is not simply "all of it": the maturity is the spec's
 * plan, the note what is built here. Derived from the routes built, so it cannot fall behind them.
 */
export function capabilityNote(capability: Capability, implemented: ReadonlySet<string>): string | undefined {
  const endpoints = endpointsOf(capability);
  if (endpoints.length === 0) return capability.usedThrough ?? `${NOT_BUILT}: it has no endpoint and no service implements it.`;
  const missing = endpoints.filter((e) => !implemented.has(endpointKey(e))).length;
  if (missing === 0) return undefined;
  if (missing === endpoints.length) return `${NOT_BUILT}: every one of its ${missing} endpoints answers 501 not_implemented.`;
  return `${NOT_BUILT}: ${missing} of ${endpoints.length} endpoints answer 501 not_implemented.`;
}
