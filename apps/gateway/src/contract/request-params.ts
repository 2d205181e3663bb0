import { ScalarType, type DescField, type DescMessage } from '@bufbuild/protobuf';
import { SERVICES, type ServiceClients, type ServiceName } from '@ctk/shared';
import { z } from 'zod';
import { limitField } from '../routes/pagination.js';
import { queryValue } from '../routes/text-fields.js';
import { commentOf, fieldOptions, methodDesc } from './contract-registry.js';

/**
 * Path or query parameters: request fields by name, whose schemas the contract gives, and schemas of
 * those that are not request fields (`orgParams`: the organisation's handle, which auth resolves).
 */
export type Params = readonly (string | z.ZodObject)[];

/**
 * The schema of a route's path or query parameters (decision 0026). A request field's is a string
 * described by its comment, with its `format` (uuid), `pattern` or `values` checked here: a path's key
 * that cannot name anything is 422 naming it, not a lookup for the service. In a query a field is
 * optional unless `required`, has a value when given, and unknown keys are refused; numbers as NUMBERS says.
 */
export function requestParams(request: DescMessage, params: Params, where: 'path' | 'query'): z.ZodObject {
  const shape: Record<string, z.ZodType> = {};
  for (const part of params) {
    if (typeof part !== 'string') Object.assign(shape, part.shape);
    else {
      const field = request.fields.find((f) => f.name === part);
      const number = where === 'query' && field?.fieldKind === 'scalar' ? NUMBERS[field.scalar] : undefined;
      if (field?.fieldKind !== 'scalar' || (field.scalar !== ScalarType.STRING && !number))
        throw new Error(`${request.typeName} has no string field ${part}`);
      const schema = number ? described(part === 'limit' ? limitField : number, field) : paramSchema(field, where);
      shape[part] = where === 'query' && !fieldOptions(field).required ? schema.optional() : schema;
    }
  }
  return where === 'query' ? z.object(shape).strict() : z.object(shape);
}

/** The parameters of a route that calls the RPC itself (a file, a stream), as `requestParams` gives them. */
export function rpcParams<N extends ServiceName, K extends string, W extends 'path' | 'query'>(
  rpc: readonly [service: N, method: keyof ServiceClients[N] & string],
  params: readonly (K | z.ZodObject)[],
  where: W,
): z.ZodType<W extends 'path' ? Record<K, string> : Partial<Record<K, string>>> {
  return requestParams(methodDesc(SERVICES[rpc[0]].definition.fullName, rpc[1]).input, params, where) as never;
}

/**
 * Numbers a query may carry: `limit`, a count of items (1 to 100); another int32, a whole number the owner
 * bounds (a radius in metres); a double, a decimal number (a latitude).
 */
const NUMBERS: Partial<Record<ScalarType, z.ZodType>> = {
  [ScalarType.INT32]: z
    .string()
    .regex(/^\d{1,9}$/, 'must be a whole number')
    .transform(Number),
  [ScalarType.DOUBLE]: z
    .string()
    .regex(/^-?\d{1,3}(?:\.\d{1,15})?$/, 'must be a decimal number such as -122.4172')
    .transform(Number),
};

function paramSchema(field: DescField, where: 'path' | 'query'): z.ZodType {
  const { format, pattern, values } = fieldOptions(field);
  const schema: z.ZodType = values
    ? z.enum(values as [string, ...string[]])
    : format === 'uuid'
      ? z.uuid('must be a UUID')
      : pattern
        ? z.string().regex(new RegExp(pattern), `must match ${pattern}`)
        : where === 'query'
          ? queryValue
          : z.string();
  return described(schema, field);
}

function described(schema: z.ZodType, field: DescField): z.ZodType {
  const comment = commentOf(field);
  return comment ? schema.describe(comment) : schema;
}
