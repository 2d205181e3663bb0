import { RUNGS } from '../catalog/capabilities.js';
import { ENDPOINTS, endpointKey } from '../catalog/endpoints.js';
import { endpointEntry } from './service-descriptor.js';

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
        const missing = endpoints.filter((e) => !implemented.has(endpointKey(e))).length;
        return {
          id: capability.id,
          title: capability.title,
          endpoints: endpoints.map(endpointEntry),
          maturity: capability.maturity,
          for_you: capability.for_you,
          ...(missing > 0
            ? { note: `Not built yet on this instance: ${missing} of ${endpoints.length} endpoints answer 501 not_implemented.` }
            : {}),
        };
      }),
    })),
    llms_txt: LLMS_TXT_PATH,
    personalized: PERSONALIZED_HINT,
  };
}
