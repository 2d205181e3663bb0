import type { IncomingMessage, ServerResponse } from 'node:http';
import type { PaygateCore, PaygateDecision } from './create-paygate.js';
import type { PaygateOptions } from './paygate-options.js';
import { acquirePaygate } from './shared-paygate.js';

/** What the middleware reads of Express's request (plain node:http requests work too). */
export type ExpressLikeRequest = IncomingMessage & { originalUrl?: string; protocol?: string };
export type ExpressLikeMiddleware = ((request: ExpressLikeRequest, response: ServerResponse, next: (error?: unknown) => void) => void) & {
  /** The core it runs (`await middleware.paygate.ready()` at start). */
  paygate: PaygateCore;
};

/**
 * `app.get('/weather', paygateExpress({ gateUrl, key }), handler)`: the same check as the fastify plugin.
 * Every middleware made for the same gate URL, key and account shares one core (one count of uses).
 */
export function paygateExpress(options: PaygateOptions | PaygateCore): ExpressLikeMiddleware {
  const core = 'check' in options ? options : acquirePaygate(options).core;
  const middleware = function paygate(request: ExpressLikeRequest, response: ServerResponse, next: (error?: unknown) => void) {
    let decision: PaygateDecision | Promise<PaygateDecision>;
    try {
      decision = core.check({
        method: request.method ?? 'GET',
        // Under a mounted router `url` is relative to the mount point; `originalUrl` is what the client asked for.
        url: request.originalUrl ?? request.url ?? '/',
        headers: request.headers,
        origin: () => `${request.protocol ?? ('encrypted' in request.socket ? 'https' : 'http')}://${request.headers.host ?? 'localhost'}`,
      });
    } catch (error) {
      return next(error);
    }
    if (decision instanceof Promise) decision.then((settled) => apply(settled, response, next), next);
    else apply(decision, response, next);
  };
  return Object.assign(middleware, { paygate: core });
}

function apply(decision: PaygateDecision, response: ServerResponse, next: (error?: unknown) => void): void {
  if (decision.pass) {
    for (const name in decision.headers) response.setHeader(name, decision.headers[name] as string);
    return next();
  }
  response.statusCode = decision.status;
  for (const [name, value] of Object.entries(decision.headers)) response.setHeader(name, value);
  response.end(JSON.stringify(decision.body));
}
