import type {
  FastifyInstance,
  FastifyPluginAsync,
  FastifyReply,
  FastifyRequest,
  HookHandlerDoneFunction,
  onRequestHookHandler,
} from 'fastify';
import fp from 'fastify-plugin';
import type { PaygateCore, PaygateDecision } from './create-paygate.js';
import type { PaygateOptions } from './paygate-options.js';
import { acquirePaygate } from './shared-paygate.js';

declare module 'fastify' {
  interface RouteShorthandOptions {
    /** Put the route behind the payment gate: its price and grant are the gate's priced resource. */
    paygate?: boolean;
  }
  interface FastifyInstance {
    /** The gate's onRequest hook, for a route that adds it itself (`onRequest: app.paygate`). */
    paygate: onRequestHookHandler;
  }
}

/** The plugin's options: the gate's (a core is made, or shared, for them), or a core made with `paygate()`. */
export type PaygateFastifyOptions = PaygateOptions | { gate: PaygateCore };

/**
 * `app.register(paygateFastify, { gateUrl, key })`, then `app.get('/weather', { paygate: true }, handler)`.
 * The check runs in onRequest, before the body is read: an unpaid request costs no body parsing.
 * Register it before the routes it guards (an onRoute hook adds the check as they are declared). Starting
 * waits for the gate's published document (at most `documentTimeoutMs`); without it the app starts anyway,
 * and credentials go to the gate until the document comes.
 */
export const paygateFastify: FastifyPluginAsync<PaygateFastifyOptions> = fp(
  async (app: FastifyInstance, options: PaygateFastifyOptions) => {
    const { core, release } =
      'gate' in options
        ? { core: options.gate, release: () => undefined }
        : acquirePaygate({ onError: (error) => app.log.warn(`@ctk/paygate: ${error.message}`), ...options });
    const hook = fastifyHook(core);
    app.decorate('paygate', hook);
    app.addHook('onRoute', (route) => {
      if (route.paygate) route.onRequest = [...toArray(route.onRequest), hook];
    });
    app.addHook('onClose', async () => release());
    await core.ready().catch(() => undefined);
  },
  { name: '@ctk/paygate', fastify: '5.x' },
);

/**
 * The onRequest hook over a core: pass with the gate's headers added to the answer, or answer now. Callback
 * style, so that a credential accepted locally (a synchronous decision) costs no promise.
 */
export function fastifyHook(core: PaygateCore): onRequestHookHandler {
  return function paygate(request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) {
    const decision = core.check({
      method: request.method,
      url: request.url,
      headers: request.headers,
      origin: () => `${request.protocol}://${request.host}`,
    });
    if (decision instanceof Promise) decision.then((settled) => finish(settled, reply, done), done);
    else finish(decision, reply, done);
  };
}

function finish(decision: PaygateDecision, reply: FastifyReply, done: HookHandlerDoneFunction): void {
  if (decision.pass) {
    for (const name in decision.headers) reply.header(name, decision.headers[name]);
    return done();
  }
  // Answered here: the route's handler does not run, and `done` is not called.
  reply.code(decision.status).headers(decision.headers).send(decision.body);
}

function toArray<T>(value: T | T[] | undefined): T[] {
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}
