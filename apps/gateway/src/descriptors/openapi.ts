import { z } from 'zod';
import { RUNGS, SERVICE_DESCRIPTION } from '../catalog/capabilities.js';
import { ENDPOINTS, endpointKey, type AuthScheme } from '../catalog/endpoints.js';
import type { RouteDefinition } from '../routes/route-definition.js';
import { AUTH_SCHEMES } from './service-descriptor.js';

const SECURITY: Record<AuthScheme, Array<Record<string, string[]>>> = {
  none: [],
  bearer: [{ bearer: [] }],
  bearer_optional: [{}, { bearer: [] }],
  webhook: [{ webhook: [] }],
  commerce_key: [{ commerce_key: [] }],
  paygate_key: [{ paygate_key: [] }],
};

const ERROR_SCHEMA = {
  type: 'object',
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message', 'request_id'],
      properties: { code: { type: 'string' }, message: { type: 'string' }, request_id: { type: 'string' }, details: { type: 'object' } },
    },
  },
};

/** The OpenAPI 3.1 document, from the catalog and the implemented routes' schemas. */
export function openApiDocument(handlers: ReadonlyMap<string, RouteDefinition>, serverUrl: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const endpoint of ENDPOINTS) {
    const definition = handlers.get(endpointKey(endpoint));
    const path = endpoint.path.replace(/:(\w+)/g, '{$1}').replace(/\*(\w+)$/, '{$1}');
    const parameters = [...endpoint.path.matchAll(/[:*](\w+)/g)].map((m) => ({
      name: m[1],
      in: 'path',
      required: true,
      schema: { type: 'string' },
    }));
    for (const [name, schema] of Object.entries(queryProperties(definition)))
      parameters.push({ name, in: 'query', required: false, schema: schema as never });
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
        ? { requestBody: { required: true, content: { 'application/json': { schema: jsonSchema(definition.body) } } } }
        : {}),
      responses: definition
        ? { [String(definition.status ?? 200)]: { description: 'Success' }, default: errorResponse('Error') }
        : { 501: errorResponse('Not built yet on this instance: not_implemented') },
    };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Commerce Toolkit API', version: 'v1', description: SERVICE_DESCRIPTION },
    servers: [{ url: serverUrl }],
    tags: [
      { name: 'service', description: 'Service information and access' },
      ...RUNGS.flatMap((r) => r.capabilities.map((c) => ({ name: c.id, description: c.for_you }))),
    ],
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: AUTH_SCHEMES.bearer },
        paygate_key: { type: 'http', scheme: 'bearer', description: AUTH_SCHEMES.paygate_key },
        commerce_key: { type: 'apiKey', in: 'header', name: 'x-commerce-key', description: AUTH_SCHEMES.commerce_key },
        webhook: { type: 'apiKey', in: 'header', name: 'x-ctk-signature', description: AUTH_SCHEMES.webhook },
      },
      schemas: { Error: ERROR_SCHEMA },
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

function errorResponse(description: string) {
  return { description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
}
