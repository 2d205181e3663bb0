import type { FastifyPluginAsync } from 'fastify';
import type { PaygateCore } from './create-paygate.js';
import { paygateExpress, type ExpressLikeMiddleware } from './express-middleware.js';
import { paygateFastify } from './fastify-plugin.js';
import type { PaygateOptions } from './paygate-options.js';
import { acquirePaygate } from './shared-paygate.js';

export type Paygate = PaygateCore & {
  /** `app.register(gate.fastify)`, then `{ paygate: true }` on the priced routes. */
  fastify: FastifyPluginAsync;
  /** `app.get('/weather', gate.express, handler)`. */
  express: ExpressLikeMiddleware;
};

/**
 * The payment gate's middleware for a resource server: one core (the local credential check and the
 * gate's `/check`), with a fastify plugin and an Express middleware over it. `close()` stops its refresh.
 */
export function paygate(options: PaygateOptions): Paygate {
  const { core, release } = acquirePaygate(options);
  const plugin: FastifyPluginAsync = (app) => paygateFastify(app, { gate: core });
  return {
    check: (request) => core.check(request),
    ready: () => core.ready(),
    close: release,
    fastify: Object.assign(plugin, { [Symbol.for('skip-override')]: true, [Symbol.for('fastify.display-name')]: '@ctk/paygate' }),
    express: paygateExpress(core),
  };
}
