import type { DescMethod } from '@bufbuild/protobuf';
import type { ErrorCode } from '@ctk/shared';
import type { Config } from '../config.js';
import type { GatewayDeps } from '../deps.js';
import { merchantParams, orgParams, shopParams } from '../identity/organization-fields.js';
import { pageQuery } from '../routes/pagination.js';
import type { RouteDefinition } from '../routes/route-definition.js';
import type { HttpRoute } from '@ctk/proto/ctk/api/v1/annotations';
import { httpBindings } from './contract-registry.js';
import type { Params } from './request-params.js';
import { routeHooks, type RouteHook } from './route-hooks.js';
import { ownServices, type AnyServiceClients, type AnyServiceName } from './own-services.js';
import { rpcRoute, type RouteDeps, type RpcRouteOptions } from './rpc-route.js';

/**
 * Path parameters that name the organisation, which auth resolves into the request's `org`; :merchant_handle
 * only where a commerce key names it (discovery's merchant is any instance's, handle@host: a request field).
 */
const ORG_PARAMS: Record<string, Params[number]> = { handle: orgParams, merchant_handle: merchantParams, shop_id: shopParams };
const orgParam = (name: string, access: string) => (name === 'merchant_handle' && access !== 'commerce_key' ? undefined : ORG_PARAMS[name]);

/**
 * The routes the services' RPCs declare in the contract (`ctk.api.v1.http`, decision 0032), made from
 * the declaration alone; those written by hand (`by_hand`) are `handwritten`'s, and each must be there.
 */
export function contractRoutes(deps: GatewayDeps, handwritten: ReadonlyMap<string, RouteDefinition>): Map<string, RouteDefinition> {
  const hooks = routeHooks(deps);
  const routeDeps: RouteDeps = { ...deps, own: ownServices(deps) };
  const routes = new Map<string, RouteDefinition>();
  for (const { service, method, http } of httpBindings()) {
    if (http.byHand !== handwritten.has(http.route))
      throw new Error(`${http.route}: the contract says it is ${http.byHand ? '' : 'not '}written by hand, and the gateway does not agree`);
    if (!http.byHand) routes.set(http.route, declaredRoute(routeDeps, service, method, http, hooks));
  }
  return routes;
}

function declaredRoute(deps: RouteDeps, service: AnyServiceName, method: DescMethod, http: HttpRoute, hooks: Record<string, RouteHook>) {
  const names = [...http.route.matchAll(/:(\w+)/g)].map((match) => match[1]!);
  let options: RpcRouteOptions<AnyServiceName> = {
    rpc: [service, method.localName as keyof AnyServiceClients[AnyServiceName] & string],
    ...(names.length ? { params: names.map((name) => orgParam(name, http.access) ?? name) } : {}),
    ...(http.query.length ? { query: http.query.map((name) => (name === 'page' ? pageQuery : name)) } : {}),
    ...(http.body ? { body: http.body === '*' ? true : http.body } : {}),
    ...(http.answer ? { answer: http.page ? { page: http.answer } : http.answer } : {}),
    ...(http.view ? { view: http.view } : {}),
    ...(http.status ? { status: http.status } : {}),
    ...(http.creates ? { creates: true } : {}),
    ...(http.errors.length ? { errors: http.errors as ErrorCode[] } : {}),
    ...(http.timeoutMs ? { timeoutMs: http.timeoutMs } : {}),
    ...(http.orgHandle ? { orgHandle: http.orgHandle } : {}),
    ...(http.user ? { user: true } : {}),
    ...(http.rateLimit ? { rateLimitPerMinute: rateLimit(deps.config, http.rateLimit) } : {}),
  };
  const named = http.hooks.map((name) => {
    const hook = hooks[name];
    if (!hook) throw new Error(`${http.route}: the gateway has no hook ${name}`);
    return hook;
  });
  for (const hook of named) if (hook.options) options = hook.options(options);
  let route = rpcRoute(deps, options);
  for (const hook of named) if (hook.route) route = hook.route(route);
  return route;
}

/** A route's own per-address limit: the setting CTK_<NAME>_RATE_LIMIT_PER_MINUTE. */
function rateLimit(config: Config, name: string): number {
  const value = (config as Record<string, unknown>)[`CTK_${name.toUpperCase()}_RATE_LIMIT_PER_MINUTE`];
  if (typeof value !== 'number') throw new Error(`no setting for the rate limit ${name}`);
  return value;
}
