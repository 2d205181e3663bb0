import type { BaseConfig, ServiceContext, ServiceDefinition, ServiceParts } from '../service/define-service.js';
import { startService, type RunningService, type StartOptions } from '../service/start-service.js';

/** What an app's exported build function makes: its parts for the bootstrap, and the insides a test may reach. */
export type Built<X> = X & { parts: ServiceParts };

/**
 * Starts an app through the one bootstrap exactly as production does, but with `build` (the app's own
 * build function, which its definition's build step calls) in its place, so that the test keeps what
 * it made besides the parts: the gateway's Fastify app, pos's order context. Production never sees it.
 */
export async function startBuiltService<C extends BaseConfig, P, O, X extends object>(
  definition: ServiceDefinition<C, P, O>,
  build: (context: ServiceContext<C, P>, options: Partial<O>) => Built<X> | Promise<Built<X>>,
  config: C,
  options: StartOptions<O> = {},
): Promise<RunningService & X> {
  let insides: X | undefined;
  const running = await startService(
    {
      ...definition,
      build: async (context, appOptions) => {
        const { parts, ...rest } = await build(context, appOptions);
        insides = rest as unknown as X;
        return parts;
      },
    },
    config,
    options,
  );
  return { ...(insides as X), port: running.port, metricsPort: running.metricsPort, close: running.close };
}
