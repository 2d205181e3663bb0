import { AppError, type ErrorCode } from '@ctk/shared';
import { z } from 'zod';
import { RUNGS, SERVICE_DESCRIPTION } from '../catalog/capabilities.js';
import { ENDPOINTS, endpointKey, type AuthScheme, type Endpoint } from '../catalog/endpoints.js';
import { successStatus, type RouteDefinition } from '../routes/route-definition.js';
import { AUTH_SCHEMES } from './service-descriptor.js';

const SECURITY: Record<AuthScheme, Array<Record<string, string[]>>> = {
  none: [],
  bearer: [{ bearer: [] }],
  bearer_optional: [{}, { bearer: [] }],
  webhook: [{ webhook: [] }],
  commerce_key: [{ commerce_key: [] }],
  paygate_key: [{ paygate_key: [] }],
};

const ERROR_FIELDS = {
  type: 'object',
  required: ['code', 'message', 'request_id'],
  properties: { code: { type: 'string' }, message: { type: 'string' }, request_id: { type: 'string' }, details: { type: 'object' } },
};
/** The header every POST that creates something honours (plugins/idempotency.ts). */
const IDEMPOTENCY_KEY = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'A retry with the same key and body from the same caller answers what the first request did (for 24 hours, header idempotent-replayed: true); another body is a 422.',
  example: '5f0c8e2a-3b7d-4e1f-9a6c-2d8b4f7e1a90',
  schema: { type: 'string', pattern: '^[\\x21-\\x7e]{1,255}$' },
};
const ERROR_SCHEMA = { type: 'object', required: ['error'], properties: { error: ERROR_FIELDS } };

/**
 * The OpenAPI 3.1 document, from the catalog and the implemented routes' schemas: each built operation's
 * request schemas, its success answer's schema and example, and the errors it can answer.
 */
export function openApiDocument(handlers: ReadonlyMap<string, RouteDefinition>, serverUrl: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  const components: Record<string, unknown> = { Error: ERROR_SCHEMA, BsvaliasError: ERROR_FIELDS };
  for (const endpoint of ENDPOINTS) {
    const definition = handlers.get(endpointKey(endpoint));
    const path = endpoint.path.replace(/:(\w+)/g, '{$1}').replace(/\*(\w+)$/, '{$1}');
    const parameters: Array<Record<string, unknown>> = [...endpoint.path.matchAll(/[:*](\w+)/g)].map((m) => ({
      name: m[1],
      in: 'path',
      required: true,
      schema: { type: 'string' },
    }));
    for (const [name, schema] of Object.entries(queryProperties(definition)))
      parameters.push({ name, in: 'query', required: false, schema });
    for (const [name, header] of Object.entries(definition?.headers ?? {}))
      parameters.push({
        name,
        in: 'header',
        required: header.required ?? false,
        description: header.description,
        example: header.example,
        schema: { type: 'string' },
      });
    if (definition?.creates) parameters.push(IDEMPOTENCY_KEY);
    paths[path] ??= {};
    paths[path][endpoint.method.toLowerCase()] = {
      summary: endpoint.summary,
      tags: [endpoint.capability ?? 'service'],
      security: SECURITY[endpoint.auth],
      'x-auth': endpoint.auth,
      'x-role': endpoint.role,
      'x-capability': endpoint.capability,
      parameters,
      ...(definition?.body
        ? {
            requestBody: {
              required: true,
              content: {
                'application/json': { schema: jsonSchema(definition.body), example: definition.bodyExample },
                ...(definition.jsonAlso
                  ? { [definition.jsonAlso.body]: { schema: jsonSchema(definition.body), example: definition.bodyExample } }
                  : {}),
              },
            },
          }
        : {}),
      responses: definition
        ? {
            [String(successStatus(definition))]: successResponse(definition, components),
            ...(definition.alsoStatus ? { [String(definition.alsoStatus)]: successResponse(definition, components) } : {}),
            ...errorResponses(endpoint, definition),
            default: errorResponse('Any other error, such as 500 internal', definition.bsvalias),
          }
        : { 501: errorResponse('Not built yet on this instance: not_implemented') },
    };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Commerce Toolkit API', version: 'v1', description: SERVICE_DESCRIPTION },
    servers: [{ url: serverUrl }],
    tags: [
      { name: 'service', description: 'Service information and access' },
      ...RUNGS.flatMap((r) => r.capabilities.map((c) => ({ name: c.id, description: c.forYou }))),
    ],
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: AUTH_SCHEMES.bearer },
        paygate_key: { type: 'http', scheme: 'bearer', description: AUTH_SCHEMES.paygate_key },
        commerce_key: { type: 'apiKey', in: 'header', name: 'x-commerce-key', description: AUTH_SCHEMES.commerce_key },
        webhook: { type: 'apiKey', in: 'header', name: 'Stripe-Signature', description: AUTH_SCHEMES.webhook },
      },
      schemas: components,
    },
    paths,
  };
}

function jsonSchema(schema: z.ZodType) {
  return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' });
}

function queryProperties(definition: RouteDefinition | undefined): Record<string, unknown> {
  if (!definition?.query) return {};
  return (jsonSchema(definition.query) as { properties?: Record<string, unknown> }).properties ?? {};
}

function errorResponse(description: string, bsvalias = false) {
  return {
    description,
    content: { 'application/json': { schema: { $ref: `#/components/schemas/${bsvalias ? 'BsvaliasError' : 'Error'}` } } },
  };
}

/**
 * The success answer: its JSON schema (named schemas become components) with its example, and any
 * file it may come as instead (text with its example; bytes as `format: binary`); a 204 has no content.
 */
function successResponse(definition: RouteDefinition, components: Record<string, unknown>) {
  if (definition.noContent) return { description: 'Success: no content' };
  const files = Object.entries(definition.files ?? {}).map(([media, file]) => [
    media,
    'binary' in file
      ? { schema: { type: 'string', format: 'binary', description: file.description } }
      : { schema: { type: 'string', description: file.description }, example: file.example },
  ]);
  const headers = Object.entries(definition.answerHeaders ?? {}).map(([name, header]) => [
    name,
    { description: header.description, example: header.example, schema: { type: 'string' } },
  ]);
  return {
    description: !definition.answer
      ? 'Success: a file'
      : definition.files
        ? 'Success: JSON, or a file of one of the other media types'
        : definition.jsonAlso
          ? `Success: JSON, as ${definition.jsonAlso.answer} when the request was sent as ${definition.jsonAlso.body} or accepts it`
          : 'Success',
    ...(headers.length > 0 ? { headers: Object.fromEntries(headers) } : {}),
    content: {
      ...(definition.answer ? { 'application/json': jsonAnswer(definition.answer, components) } : {}),
      ...(definition.answer && definition.jsonAlso ? { [definition.jsonAlso.answer]: jsonAnswer(definition.answer, components) } : {}),
      ...Object.fromEntries(files),
    },
  };
}

function jsonAnswer(answer: z.ZodType, components: Record<string, unknown>) {
  const { $defs, $schema: _, ...schema } = z.toJSONSchema(answer, { io: 'output', unrepresentable: 'any' });
  for (const [id, component] of Object.entries($defs ?? {})) addComponent(components, id, toComponentRefs(component));
  const example = (z.globalRegistry.get(answer)?.examples as unknown[] | undefined)?.[0];
  return { schema: toComponentRefs(schema), ...(example === undefined ? {} : { example }) };
}

/** One schema per name: a second, different schema under a name already taken would silently replace the first. */
function addComponent(components: Record<string, unknown>, id: string, component: unknown) {
  const known = components[id];
  if (known !== undefined && JSON.stringify(known) !== JSON.stringify(component))
    throw new Error(`Two different answer schemas are named ${id}: give one of them another name`);
  components[id] = component;
}

/** zod writes references to named schemas as `#/$defs/<id>`; in the document they are components. */
function toComponentRefs(schema: unknown): unknown {
  return JSON.parse(JSON.stringify(schema).replaceAll('"#/$defs/', '"#/components/schemas/'));
}

/** The errors an operation can answer, by status, each listing its codes: from its auth, role, input, idempotency, service and handler. */
function errorResponses(endpoint: Endpoint, definition: RouteDefinition) {
  const codes = new Set<ErrorCode>();
  if (endpoint.auth !== 'none') codes.add(endpoint.auth === 'webhook' ? 'invalid_signature' : 'invalid_api_key');
  if (endpoint.auth === 'bearer' || endpoint.auth === 'commerce_key' || endpoint.auth === 'paygate_key' || definition.user)
    codes.add('unauthenticated');
  if (endpoint.role) codes.add('forbidden').add('not_found');
  // A commerce key of another merchant than the path names.
  if (endpoint.auth === 'commerce_key') codes.add('forbidden');
  if (definition.params || definition.query || definition.body) codes.add('validation_failed');
  if (definition.body) codes.add('bad_request').add('payload_too_large').add('unsupported_media_type');
  if (definition.creates) codes.add('idempotency_in_progress').add('idempotency_key_reused');
  if (endpoint.service !== 'gateway') codes.add('unavailable').add('timeout');
  for (const code of definition.errors ?? []) codes.add(code);
  codes.add('rate_limited');
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const status = new AppError(code, '').httpStatus;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return Object.fromEntries(
    [...byStatus].sort(([a], [b]) => a - b).map(([status, list]) => [String(status), errorResponse(list.join(', '), definition.bsvalias)]),
  );
}
