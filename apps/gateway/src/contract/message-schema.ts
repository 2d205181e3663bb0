import { ScalarType, type DescField, type DescMessage, type DescOneof } from '@bufbuild/protobuf';
import { FeatureSet_FieldPresence } from '@bufbuild/protobuf/wkt';
import { z } from 'zod';
import { isoTime, minorUnits } from '../routes/answer-schema.js';

/** A `date-time` string field: ISO 8601 in UTC or with an offset (a shop's local time, 2026-11-30T07:00:00-08:00). */
const localTime = z.iso.datetime({ offset: true });
import { commentOf, exampleOf, fieldOptions } from './contract-registry.js';

/**
 * The schemas of a message's JSON form (json-mapping.ts), derived from the contract: the request's, which
 * checks shape only (types, required fields, no unknown keys; the owning service checks its rules), and the
 * answer's, which the OpenAPI document shows with the example written beside the contract.
 */

const INT32 = { min: -2_147_483_648, max: 2_147_483_647 };
const INT64 = { min: -(2n ** 63n), max: 2n ** 63n - 1n };

/**
 * An unbounded int64 a request sends: a JSON integer while exact (a larger one has already lost digits when
 * the body was parsed), or its digits as a string, within the int64 range the message can carry.
 */
const int64OrDigits = z.union([
  z.int(),
  z
    .string()
    .refine(
      (digits) => /^-?\d{1,19}$/.test(digits) && BigInt(digits) >= INT64.min && BigInt(digits) <= INT64.max,
      'expected a 64-bit integer, or its digits as a string',
    ),
]);
const UINT32 = { min: 0, max: 4_294_967_295 };

function scalarSchema(field: DescField & { scalar: ScalarType }, direction: 'request' | 'answer'): z.ZodType {
  const { values, format, unbounded } = fieldOptions(field);
  switch (field.scalar) {
    case ScalarType.STRING:
      // A request's values and formats are the owner's rules, documented here and checked there.
      if (direction === 'request') return values ? z.string().meta({ enum: values }) : z.string();
      if (values) return z.enum(values as [string, ...string[]]);
      return format === 'uuid' ? z.uuid() : format === 'date-time' ? localTime : format === 'uri' ? z.url() : z.string();
    case ScalarType.BOOL:
      // A bool with one value (`values: "true"`) says only that something happened (a key revoked).
      return values && direction === 'answer' ? z.literal(values[0] === 'true') : z.boolean();
    case ScalarType.DOUBLE:
    case ScalarType.FLOAT:
      return z.number();
    case ScalarType.INT32:
    case ScalarType.SINT32:
    case ScalarType.SFIXED32:
      // Bounded so that the protobuf encoding cannot wrap a huge number into a valid one.
      return z.number().int().min(INT32.min).max(INT32.max);
    case ScalarType.UINT32:
    case ScalarType.FIXED32:
      return z.number().int().min(UINT32.min).max(UINT32.max);
    case ScalarType.BYTES:
      return z.base64();
    default:
      // 64-bit integers: JSON integers within the exact range; the owner's caps are narrower. An
      // unbounded one (a sum, a token supply) is its digits as a string past that range, both ways.
      if (!unbounded) return z.int();
      return direction === 'answer' ? minorUnits : int64OrDigits;
  }
}

function valueSchema(field: DescField, direction: 'request' | 'answer'): z.ZodType {
  switch (field.fieldKind) {
    case 'scalar':
      return scalarSchema(field, direction);
    case 'message':
      return messageSchema(field.message, direction);
    case 'list':
      return z.array(
        field.listKind === 'scalar'
          ? scalarSchema(field, direction)
          : field.listKind === 'message'
            ? messageSchema(field.message, direction)
            : unsupported(field),
      );
    case 'map':
      // A JSON object: its keys are strings, whatever the map's key type says.
      if (field.mapKey !== ScalarType.STRING) return unsupported(field);
      return z.record(
        z.string(),
        field.mapKind === 'scalar'
          ? scalarSchema(field, direction)
          : field.mapKind === 'message'
            ? messageSchema(field.message, direction)
            : unsupported(field),
      );
    default:
      return unsupported(field);
  }
}

function fieldSchema(field: DescField, direction: 'request' | 'answer'): z.ZodType {
  let schema = valueSchema(field, direction);
  const { required, notNull, omitUnset, nullWhenEmpty } = fieldOptions(field);
  const nullable =
    field.fieldKind === 'message' ||
    (field.fieldKind === 'scalar' && field.presence === FeatureSet_FieldPresence.EXPLICIT) ||
    (field.fieldKind === 'list' && nullWhenEmpty);
  if (direction === 'answer') {
    if (omitUnset) schema = schema.optional();
    else if (nullable && !required) schema = schema.nullable();
  } else if (!required) {
    schema = nullable && !notNull ? schema.nullable().optional() : schema.optional();
  }
  const comment = commentOf(field);
  return comment ? schema.describe(comment) : schema;
}

/** google.protobuf.Struct: a JSON object passed as it is (a signed document the owner checks). */
const jsonObject = z.record(z.string(), z.unknown());

const cache = { request: new Map<string, z.ZodType>(), answer: new Map<string, z.ZodType>() };

/**
 * The schema of a message's JSON: a request's refuses unknown keys, an answer's is a named component of
 * the document with its example. `omit` leaves out fields the route fills itself (path parameters).
 */
export function messageSchema(desc: DescMessage, direction: 'request' | 'answer', omit: readonly string[] = []): z.ZodType {
  if (desc.typeName === 'google.protobuf.Timestamp') return isoTime;
  if (desc.typeName === 'google.protobuf.Struct') return jsonObject;
  const key = `${desc.typeName}:${omit.join(',')}`;
  const cached = cache[direction].get(key);
  if (cached) return cached;
  const shape = shapeOf(desc, direction, omit);
  const [oneof, ...more] = desc.oneofs;
  if (more.length > 0) throw new Error(`${desc.typeName}: one oneof per message is in the public JSON, not ${desc.oneofs.length}`);
  let schema: z.ZodType = oneof ? taggedUnion(oneof, shape, direction) : objectOf(shape, direction);
  const comment = commentOf(desc);
  if (comment) schema = schema.describe(comment);
  if (direction === 'answer') {
    const example = exampleOf(desc);
    schema = schema.meta({ id: desc.name, ...(example === undefined ? {} : { examples: [example] }) });
  }
  cache[direction].set(key, schema);
  return schema;
}

function shapeOf(desc: DescMessage, direction: 'request' | 'answer', omit: readonly string[] = []): Record<string, z.ZodType> {
  const shape: Record<string, z.ZodType> = {};
  for (const field of desc.fields) {
    const { internal, outputOnly } = fieldOptions(field);
    if (field.oneof || internal || (outputOnly && direction === 'request') || omit.includes(field.name)) continue;
    shape[field.name] = fieldSchema(field, direction);
  }
  return shape;
}

const objectOf = (shape: Record<string, z.ZodType>, direction: 'request' | 'answer') =>
  direction === 'request' ? z.strictObject(shape) : z.object(shape);

/** A oneof of messages (json-mapping.ts): the oneof's name holds the member's name, beside the member's own fields. */
function taggedUnion(oneof: DescOneof, shape: Record<string, z.ZodType>, direction: 'request' | 'answer'): z.ZodType {
  const members = oneof.fields.map((member) =>
    member.fieldKind === 'message'
      ? objectOf({ ...shape, [oneof.name]: z.literal(member.name), ...shapeOf(member.message, direction) }, direction)
      : unsupported(member),
  );
  return z.discriminatedUnion(oneof.name, members as [z.ZodObject, ...z.ZodObject[]]);
}

function unsupported(field: DescField): never {
  throw new Error(`${field.parent.typeName}.${field.name}: a ${field.fieldKind} of this kind is not in the public JSON yet`);
}
