import type { DescField, DescMessage } from '@bufbuild/protobuf';
import { z } from 'zod';
import { requireOrg, requireUser } from '../auth/authenticate.js';
import type { GatewayDeps } from '../deps.js';
import { handleField } from '../identity/organization-fields.js';
import { resolveGateAccount } from '../paygate/resolve-gate-account.js';
import { clientAddress } from '../plugins/rate-limits.js';
import { pageOf } from '../routes/answer-schema.js';
import { route, type HandlerInput, type RouteDefinition } from '../routes/route-definition.js';
import { callOptions, orgRef } from '../routes/service-call.js';
import { exampleOf, fieldOptions, messageDesc, methodDesc, secretsOf } from './contract-registry.js';
import { fromJson, toJson } from './json-mapping.js';
import { isOwnService, serviceFullName, type AnyServiceClients, type AnyServiceName, type OwnServices } from './own-services.js';
import { messageSchema } from './message-schema.js';
import { requestParams, type Params } from './request-params.js';

type Input = HandlerInput<Record<string, unknown>, Record<string, unknown>, Record<string, unknown>>;
type Json = Record<string, unknown>;
/** What a route needs: the services' clients, and the gateway's own services where it calls one of them. */
export type RouteDeps = Pick<GatewayDeps, 'services' | 'config' | 'credentials'> & { own?: OwnServices };

/**
 * Request fields that are the request's context, never the caller's to send: `internal` fields filled by
 * name (this instance's public URL, who made it, whether staff made it, the caller's user and the key they
 * called with, the payment-gate account of the key, the caller's role in the organisation, the client's
 * address). `fill` may give them otherwise (the origin the caller reached).
 */
const CONTEXT: Record<string, (input: Input, deps: RouteDeps) => unknown> = {
  public_url: (_, deps) => deps.config.CTK_PUBLIC_URL,
  created_by: ({ request }) => (request.caller.kind === 'user' ? request.caller.userId : ''),
  staff: ({ request }) => Boolean(request.routeOptions.config.endpoint?.role),
  user_id: ({ request }) => requireUser(request).userId,
  api_key_id: ({ request }) => requireUser(request).apiKeyId,
  account: ({ request }, deps) => resolveGateAccount(deps.credentials, request),
  caller_role: ({ request }) => requireOrg(request).role ?? '',
  client_address: ({ request }) => clientAddress(request),
};

/** The options of a route that are not its input, answer and handler (route-definition.ts). */
type RouteOptions = Omit<RouteDefinition, 'body' | 'query' | 'params' | 'answer' | 'handle' | 'bodyExample' | 'noContent'>;

export type RpcRouteOptions<N extends AnyServiceName> = RouteOptions & {
  /** The service and its method (the generated client's name, e.g. `['pos', 'createItem']`). */
  rpc: readonly [service: N, method: keyof AnyServiceClients[N] & string];
  /**
   * Path and query parameters; those named as request fields go into the request. A list names request
   * fields, whose schemas the contract gives (request-params.ts), beside schemas of the others.
   */
  params?: z.ZodType | Params;
  query?: z.ZodType | Params;
  /**
   * The request's other fields come as the JSON body (less `org` and the fields `fill` gives); or, named,
   * the body is that one message field of the request (e.g. a program replaced as a whole).
   */
  body?: boolean | string;
  /** The body also names the organisation as `org_handle` (which auth resolves): its description. */
  orgHandle?: string;
  /** Request fields the route gives itself from the request (a header, the caller): left out of the body. */
  fill?: { fields: readonly string[]; from: (input: Input) => Json | Promise<Json> };
  /**
   * One field of the response, a page of one (`{"data", "next_cursor"}`, null when the response has no
   * next_cursor: the whole list), or (absent) the whole response.
   */
  answer?: string | { page: string };
  /**
   * The message (full name) the answer is shown as, in place of the answer's own: its fields are taken
   * from the answer by name, so a reader sees only what that view of it holds (a public card).
   */
  view?: string;
  /** Runs on the answer before it is sent (e.g. to set a header from it), with the response it was taken from. */
  after?: (answer: Json, input: Input, response: Json) => void;
  /** How long the call may take, where the service's work is slower than usual (reading the chain). */
  timeoutMs?: number;
};

/**
 * A route that is one RPC. Its request is the path's, query's and body's fields by the contract's names
 * (and `org`, the organisation the request resolved); its answer is the response, or a field or page of
 * it. Schemas, examples and the JSON mapping come from the contract (docs/decisions/0026-the-contract-written-once.md).
 */
export function rpcRoute<N extends AnyServiceName>(deps: RouteDeps, options: RpcRouteOptions<N>): RouteDefinition {
  const { rpc, body, orgHandle, fill, answer, view, after, timeoutMs, ...rest } = options;
  const method = methodDesc(serviceFullName(rpc[0]), rpc[1]);
  const input = method.input;
  const params = isParams(options.params) ? requestParams(input, options.params, 'path') : options.params;
  const query = isParams(options.query) ? requestParams(input, options.query, 'query') : options.query;
  const bodyField = typeof body === 'string' ? input.fields.find((f) => f.name === body) : undefined;
  if (typeof body === 'string' && !bodyField?.message) throw new Error(`${input.typeName} has no message field ${body}`);
  const bodyDesc = bodyField?.message ?? input;
  // The request's context, and the body message's where the body is one field (an order priced as a whole).
  const [context, bodyContext] = [contextOf(input), bodyField ? contextOf(bodyDesc) : undefined];
  const notInBody = [...context.names, ...keysOf(params), ...keysOf(query), ...(fill?.fields ?? [])];
  let bodySchema = body ? messageSchema(bodyDesc, 'request', bodyContext?.names ?? notInBody) : undefined;
  if (bodySchema && orgHandle) bodySchema = (bodySchema as z.ZodObject).extend({ org_handle: handleField.describe(orgHandle) });
  // Paymail clients follow the paymail rules, not this API's: what they send beside the spec's fields is left out, not refused.
  if (bodySchema && rest.bsvalias) bodySchema = (bodySchema as z.ZodObject).strip();
  const shown = answerOf(method.output, answer, view ? messageDesc(view) : undefined);
  if (isOwnService(rpc[0]) && !deps.own) throw new Error(`${rpc.join('.')}: the gateway's own services are not given (deps.own)`);
  const client = (isOwnService(rpc[0]) ? deps.own! : deps.services)[rpc[0] as never] as Record<
    string,
    (request: unknown, options: unknown) => Promise<Json>
  >;
  const secrets = shown?.desc ? secretsOf(shown.desc) : [];

  return route({
    ...rest,
    ...(params ? { params } : {}),
    ...(query ? { query } : {}),
    ...(bodySchema ? { body: bodySchema, bodyExample: bodyExample(input, bodyField, bodySchema) as never } : {}),
    ...(shown ? { answer: shown.schema } : { noContent: true }),
    ...(secrets.length && !rest.secrets ? { secrets } : {}),
    handle: async (handlerInput: Input) => {
      const fields = bodyField ? {} : (handlerInput.body ?? {});
      const request = fromJson(input, { ...handlerInput.params, ...handlerInput.query, ...fields });
      if (bodyField) request[bodyField.localName] = fromJson(bodyDesc, handlerInput.body ?? {});
      await context.give(request, handlerInput, deps);
      if (bodyField) await bodyContext!.give(request[bodyField.localName] as Json, handlerInput, deps);
      if (fill) Object.assign(request, await fill.from(handlerInput));
      const call = callOptions(handlerInput.request);
      const response = await client[rpc[1]]!(request, timeoutMs ? { ...call, timeoutMs } : call);
      if (!shown) return undefined as never;
      const json = shown.view(response);
      after?.(json, handlerInput, response);
      return json as never;
    },
  } as never);
}

/**
 * What the gateway gives a message of the request: `org` (the organisation the request resolved), the
 * context's fields by name, and each `internal` bool `clear_<field>`, set when the body sent <field> as null:
 * back to its default, which leaving it out does not say.
 */
function contextOf(desc: DescMessage) {
  const org = desc.fields.some((f) => f.name === 'org' && f.message?.typeName === 'ctk.common.v1.OrgRef');
  const context = desc.fields.filter((f) => CONTEXT[f.name] && fieldOptions(f).internal);
  const clears = desc.fields.filter((f) => f.name.startsWith('clear_') && fieldOptions(f).internal);
  return {
    names: [...(org ? ['org'] : []), ...context.map((f) => f.name)],
    give: async (message: Json, input: Input, deps: RouteDeps) => {
      if (org) message.org = orgRef(requireOrg(input.request));
      for (const field of context) message[field.localName] = await CONTEXT[field.name]!(input, deps);
      for (const field of clears) message[field.localName] = (input.body as Json | undefined)?.[field.name.slice(6)] === null;
    },
  };
}

/**
 * The example written beside the body's message (for a body that is one field, the request example's field
 * or else its message's), less what its schema does not take (an id the service gives).
 */
function bodyExample(input: DescMessage, field: DescField | undefined, schema: z.ZodType): unknown {
  const request = exampleOf(input) as Json | undefined;
  const example = (field ? (request?.[field.name] ?? exampleOf(field.message!)) : request) as Json | undefined;
  const keys = keysOf(schema);
  return example && Object.fromEntries(Object.entries(example).filter(([key]) => keys.includes(key)));
}

function isParams(params: z.ZodType | Params | undefined): params is Params {
  return Array.isArray(params);
}

function keysOf(schema: z.ZodType | undefined): string[] {
  return schema instanceof z.ZodObject ? Object.keys(schema.shape) : [];
}

/** The answer's schema and how to take it from the response (shown as `view` when given). */
function answerOf(output: DescMessage, answer: string | { page: string } | undefined, view: DescMessage | undefined) {
  if (answer === undefined) {
    if (output.fields.length === 0) return undefined;
    const shown = view ?? output;
    return { desc: shown, schema: messageSchema(shown, 'answer'), view: (response: Json) => toJson(shown, response) };
  }
  const name = typeof answer === 'string' ? answer : answer.page;
  const field = output.fields.find((f) => f.name === name);
  if (!field?.message) throw new Error(`${output.typeName} has no message field ${name}`);
  const element = view ?? field.message;
  const schema = messageSchema(element, 'answer');
  if (typeof answer === 'string')
    return { desc: element, schema, view: (response: Json) => toJson(element, response[field.localName] as Json) };
  // A list the service answers whole (no next_cursor) is one page.
  const cursor = output.fields.find((f) => f.name === 'next_cursor');
  return {
    schema: pageOf(element.name, schema),
    view: (response: Json) => ({
      data: (response[field.localName] as Json[]).map((item) => toJson(element, item)),
      next_cursor: (cursor && (response[cursor.localName] as string)) || null,
    }),
  };
}
