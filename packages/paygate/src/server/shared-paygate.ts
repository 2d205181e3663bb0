import { createPaygate, type PaygateCore } from './create-paygate.js';
import type { PaygateOptions } from './paygate-options.js';

type Shared = { core: PaygateCore; holders: number };
const cores = new Map<string, Shared>();

/**
 * One core for the same options in this process, however many routes or plugins ask for it: the uses of
 * a calls grant are counted once (two cores would each allow `calls` uses). `release` closes the core when
 * its last holder lets go.
 */
export function acquirePaygate(options: PaygateOptions): { core: PaygateCore; release(): void } {
  // The options but `onError` (a function, which a fresh closure per call would make always different).
  const id = JSON.stringify(
    Object.entries(options)
      .filter(([name]) => name !== 'onError')
      .sort(([a], [b]) => a.localeCompare(b)),
  );
  let shared = cores.get(id);
  if (!shared) {
    shared = { core: createPaygate(options), holders: 0 };
    cores.set(id, shared);
  }
  shared.holders++;
  const held = shared;
  let released = false;
  return {
    core: held.core,
    release() {
      if (released) return;
      released = true;
      if (--held.holders > 0) return;
      held.core.close();
      if (cores.get(id) === held) cores.delete(id);
    },
  };
}
