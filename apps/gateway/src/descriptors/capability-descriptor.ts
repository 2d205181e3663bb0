import { RUNGS, type Capability } from '../catalog/capabilities.js';
import { ENDPOINTS, endpointKey } from '../catalog/endpoints.js';
import { endpointEntry } from './service-descriptor.js';

/** How a note that a capability (or part of it) is not built on this instance begins. */
export const NOT_BUILT = 'Not built yet on this instance';
export const LLMS_TXT_PATH = '/llms.txt';
export const PERSONALIZED_HINT =
  'GET /api/v1/orgs/:handle/capabilities (bearer, staff): this map marked with what your organisation has set up and what to do next';

/** `GET /api/v1/capabilities` (spec 2.2): rungs in step order, each capability with its endpoints. */
export function capabilityDescriptor(implemented: ReadonlySet<string>) {
  return {
    description: 'Six rungs, each working on its own: climb as far as your business needs.',
    rungs: RUNGS.map((rung) => ({
      id: rung.id,
      title: rung.title,
      step: rung.step,
      promise: rung.promise,
      capabilities: rung.capabilities.map((capability) => {
        const endpoints = ENDPOINTS.filter((e) => e.capability === capability.id);
        const note = capabilityNote(capability, implemented);
        return {
          id: capability.id,
          title: capability.title,
          endpoints: endpoints.map(endpointEntry),
          maturity: capability.maturity,
          for_you: capability.for_you,
          ...(note ? { note } : {}),
        };
      }),
    })),
    llms_txt: LLMS_TXT_PATH,
    personalized: PERSONALIZED_HINT,
  };
}

/**
 * What this instance does of a capability, where that is not simply "all of it": the maturity is the spec's
 * plan, the note what is built here. Derived from the routes built, so it cannot fall behind them.
 */
export function capabilityNote(capability: Capability, implemented: ReadonlySet<string>): string | undefined {
  const endpoints = ENDPOINTS.filter((e) => e.capability === capability.id);
  if (endpoints.length === 0) return capability.used_through ?? `${NOT_BUILT}: it has no endpoint and no service implements it.`;
  const missing = endpoints.filter((e) => !implemented.has(endpointKey(e))).length;
  if (missing === 0) return undefined;
  if (missing === endpoints.length) return `${NOT_BUILT}: every one of its ${missing} endpoints answers 501 not_implemented.`;
  return `${NOT_BUILT}: ${missing} of ${endpoints.length} endpoints answer 501 not_implemented.`;
}
