import { ScalarType, type DescField, type DescMessage, type DescOneof } from '@bufbuild/protobuf';
import { AppError } from '@ctk/shared';
import { minorUnitsOf } from '../routes/answer-schema.js';
import { fieldOptions } from './contract-registry.js';

/**
 * The one rule between the public JSON and the contracts' messages as ts-proto generates them
 * (docs/decisions/0026-the-contract-written-once.md):
 * - a JSON key is the proto field's name (`unit_price_minor`), the message key its camelCase local name;
 * - 64-bit integers (bigint in the messages) are JSON integers, which the schemas keep within the safe range;
 *   one marked `unbounded` (a sum, a token supply) is its digits as a string past 2^53, where a number would
 *   not be exact, in answers and requests alike;
 * - a field with explicit presence (`optional`) or a message field is `null` when absent (left out where
 *   marked `omit_unset`), as is a list marked `null_when_empty` when it is empty;
 * - timestamps (google.protobuf.Timestamp, a Date in the messages) are ISO 8601 strings; a
 *   google.protobuf.Struct is the JSON object it holds;
 * - fields marked `internal` are never in the JSON;
 * - a map with string keys is a JSON object;
 * - a view's field marked `view_of` shows the message's field of that name (books' `rows` as a report's `data`);
 * - a oneof of messages (ts-proto's `{ $case, value }`, option oneof=unions-value) is a tagged union: the
 *   oneof's name holds the member's name, beside the member's fields (`{"kind": "calls", "calls": 10}`).
 * Validating the JSON's shape is the schemas' (message-schema.ts): these functions assume it was done.
 * Each message's mapping is worked out once, on first use, as a list of fields with their converters.
 */
export function toJson(desc: DescMessage, message: Record<string, unknown> | undefined, ...under: object[]): Record<string, unknown> {
  if (!message) throw new AppError('internal', `a service answered without its ${desc.name}`);
  const json: Record<string, unknown> = {};
  for (const field of plan(desc)) {
    const value = under.length === 0 ? message[field.source] : layered(field.source, message, under);
    if (value !== undefined && value !== null) json[field.name] = field.toJson(value);
    else if (!field.omitUnset) json[field.name] = field.absent;
  }
  for (const oneof of desc.oneofs) {
    const chosen = under.length === 0 ? message[oneof.localName] : layered(oneof.localName, message, under);
    Object.assign(json, oneofToJson(oneof, chosen as Chosen | undefined));
  }
  return json;
}

/**
 * A key of messages side by side (a checkout over its order): `top`'s when it has it, else the first of `under`
 * that has it, as `{ ...under, ...top }` reads it, without copying every field of each (spreading a message of
 * 47 fields and adding others to the copy took 11 µs an answer).
 */
function layered(key: string, top: Record<string, unknown>, under: object[]): unknown {
  if (key in top) return top[key];
  for (const message of under) if (key in message) return (message as Record<string, unknown>)[key];
  return undefined;
}

/** The message of a JSON object (already validated by its schema): only the keys it has. */
export function fromJson(desc: DescMessage, json: Record<string, unknown>): Record<string, unknown> {
  const message: Record<string, unknown> = {};
  for (const field of plan(desc)) {
    const value = json[field.name];
    if (value !== undefined && value !== null) message[field.localName] = field.fromJson(value);
  }
  for (const oneof of desc.oneofs) {
    const member = oneof.fields.find((f) => f.name === json[oneof.name]);
    if (member?.message) message[oneof.localName] = { $case: member.localName, value: fromJson(member.message, json) };
  }
  return message;
}

type Chosen = { $case: string; value: Record<string, unknown> };

function oneofToJson(oneof: DescOneof, chosen: Chosen | undefined): Record<string, unknown> {
  const member = oneof.fields.find((f) => f.localName === chosen?.$case);
  if (!chosen || !member?.message) throw new AppError('internal', `a service answered without its ${oneof.parent.name}.${oneof.name}`);
  return { [oneof.name]: member.name, ...toJson(member.message, chosen.value) };
}

type Convert = (value: unknown) => unknown;
/** `source` is the message key an answer's field is read from: its own, or the one its `view_of` names. */
type FieldPlan = {
  name: string;
  localName: string;
  source: string;
  absent: unknown;
  omitUnset: boolean;
  toJson: Convert;
  fromJson: Convert;
};

const plans = new WeakMap<DescMessage, FieldPlan[]>();

function plan(desc: DescMessage): FieldPlan[] {
  let fields = plans.get(desc);
  if (!fields) {
    fields = desc.fields.filter((field) => !field.oneof && !fieldOptions(field).internal).map(fieldPlan);
    plans.set(desc, fields);
  }
  return fields;
}

function fieldPlan(field: DescField): FieldPlan {
  const { omitUnset, viewOf } = fieldOptions(field);
  const base = { name: field.name, localName: field.localName, source: viewOf ? camelCase(viewOf) : field.localName, omitUnset };
  switch (field.fieldKind) {
    case 'scalar':
      return { ...base, absent: null, ...scalar(field) };
    case 'message':
      return { ...base, absent: null, ...message(field.message) };
    case 'list': {
      const element =
        field.listKind === 'scalar' ? scalar(field) : field.listKind === 'message' ? message(field.message) : unsupported(field);
      const toList: Convert = (value) => (value as unknown[]).map(element.toJson);
      const nullWhenEmpty = fieldOptions(field).nullWhenEmpty;
      return {
        ...base,
        absent: nullWhenEmpty ? null : [],
        toJson: nullWhenEmpty ? (value) => ((value as unknown[]).length > 0 ? toList(value) : null) : toList,
        fromJson: (value) => (value as unknown[]).map(element.fromJson),
      };
    }
    case 'map': {
      const value = field.mapKind === 'scalar' ? scalar(field) : field.mapKind === 'message' ? message(field.message) : unsupported(field);
      const entries = (convert: Convert) => (map: unknown) =>
        Object.fromEntries(Object.entries(map as Record<string, unknown>).map(([key, inner]) => [key, convert(inner)]));
      return { ...base, absent: {}, toJson: entries(value.toJson), fromJson: entries(value.fromJson) };
    }
    default:
      return unsupported(field);
  }
}

function message(desc: DescMessage): { toJson: Convert; fromJson: Convert } {
  if (desc.typeName === 'google.protobuf.Timestamp')
    return { toJson: (value) => (value as Date).toISOString(), fromJson: (value) => new Date(value as string) };
  if (desc.typeName === 'google.protobuf.Struct') return { toJson: same, fromJson: same };
  return {
    toJson: (value) => toJson(desc, value as Record<string, unknown>),
    fromJson: (value) => fromJson(desc, value as Record<string, unknown>),
  };
}

const same: Convert = (value) => value;
const INT64 = new Set([ScalarType.INT64, ScalarType.UINT64, ScalarType.SINT64, ScalarType.FIXED64, ScalarType.SFIXED64]);

function scalar(field: DescField & { scalar: ScalarType }): { toJson: Convert; fromJson: Convert } {
  const type = field.scalar;
  if (INT64.has(type))
    return {
      toJson: fieldOptions(field).unbounded ? (value) => minorUnitsOf(value as bigint) : int64ToJson,
      fromJson: (value) => BigInt(value as number | string),
    };
  if (type === ScalarType.BYTES)
    return {
      toJson: (value) => Buffer.from(value as Uint8Array).toString('base64'),
      fromJson: (value) => Buffer.from(value as string, 'base64'),
    };
  return { toJson: same, fromJson: same };
}

function int64ToJson(value: unknown): number {
  const number = Number(value as bigint);
  if (!Number.isSafeInteger(number)) throw new AppError('internal', `a service answered ${String(value)}, beyond a JSON integer`);
  return number;
}

/** A proto field name as the generated messages spell it (`debit_balance_minor`, `debitBalanceMinor`). */
function camelCase(name: string): string {
  return name.replace(/_([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());
}

function unsupported(field: DescField): never {
  throw new Error(`${field.parent.typeName}.${field.name}: a ${field.fieldKind} of this kind is not in the public JSON yet`);
}
