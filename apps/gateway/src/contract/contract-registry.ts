import {
  createFileRegistry,
  fromBinary,
  getOption,
  hasOption,
  type DescField,
  type DescFile,
  type DescMessage,
  type DescMethod,
} from '@bufbuild/protobuf';
import { FileDescriptorSetSchema } from '@bufbuild/protobuf/wkt';
import type { HttpRoute } from '@ctk/proto/ctk/api/v1/annotations';
import type { AnswerSecret } from '../routes/route-definition.js';
import { descriptorSet, examples } from '@ctk/proto/contract';
import { SERVICE_NAMES } from '@ctk/shared';
import { OWN_SERVICE_NAMES, serviceFullName, type AnyServiceName } from './own-services.js';

/**
 * The contracts as the gateway reads them: every message and RPC of `proto/`, with their comments, the
 * API options of ctk/api/v1/annotations.proto and the examples written beside each contract. Read once
 * at start from the descriptor set the proto package embeds (docs/decisions/0026-the-contract-written-once.md).
 */
const registry = createFileRegistry(fromBinary(FileDescriptorSetSchema, Buffer.from(descriptorSet, 'base64')));

function extension(name: string) {
  const found = registry.getExtension(`ctk.api.v1.${name}`);
  if (!found) throw new Error(`the contract has no option ctk.api.v1.${name}`);
  return found;
}
const REQUIRED = extension('required');
const VALUES = extension('values');
const FORMAT = extension('format');
const INTERNAL = extension('internal');
const OUTPUT_ONLY = extension('output_only');
const UNBOUNDED = extension('unbounded');
const NOT_NULL = extension('not_null');
const PATTERN = extension('pattern');
const OMIT_UNSET = extension('omit_unset');
const VIEW_OF = extension('view_of');
const NULL_WHEN_EMPTY = extension('null_when_empty');
const SECRET = extension('secret');
const HTTP = extension('http');

export type HttpBinding = { service: AnyServiceName; method: DescMethod; http: HttpRoute };

/**
 * The HTTP routes the services' RPCs declare, read as the module loads, with every field's options (below): each
 * option is decoded from the descriptor's bytes, a fifth of a second for the contract on this machine, which the
 * embedded default's gateway thread spends while the services start rather than in its own start (decision 0059).
 */
const BINDINGS: readonly HttpBinding[] = [...OWN_SERVICE_NAMES, ...SERVICE_NAMES].flatMap((service) =>
  (registry.getService(serviceFullName(service))?.methods ?? []).flatMap((method) =>
    hasOption(method, HTTP) ? (getOption(method, HTTP) as HttpRoute[]).map((http) => ({ service, method, http })) : [],
  ),
);

/** Every HTTP route the services' RPCs declare (the gateway's own services' too), in the order of the services and their methods. */
export function httpBindings(): readonly HttpBinding[] {
  return BINDINGS;
}

/** A message of the contracts, by its full name (e.g. `ctk.pos.v1.Item`). */
export function messageDesc(typeName: string): DescMessage {
  const found = registry.getMessage(typeName);
  if (!found) throw new Error(`the contracts have no message ${typeName}`);
  return found;
}

/** An RPC of the contracts by its service's full name and its method's local name (e.g. `createItem`). */
export function methodDesc(serviceName: string, localName: string): DescMethod {
  const method = registry.getService(serviceName)?.methods.find((m) => m.localName === localName);
  if (!method) throw new Error(`the contracts have no RPC ${serviceName}.${localName}`);
  return method;
}

export type FieldOptions = {
  required: boolean;
  values: string[] | undefined;
  format: string | undefined;
  internal: boolean;
  outputOnly: boolean;
  unbounded: boolean;
  notNull: boolean;
  pattern: string | undefined;
  omitUnset: boolean;
  viewOf: string | undefined;
  nullWhenEmpty: boolean;
  secret: string | undefined;
};
const optionsOf = new WeakMap<DescField, FieldOptions>();

/** What ctk/api/v1/annotations.proto says of a field. */
export function fieldOptions(field: DescField): FieldOptions {
  let options = optionsOf.get(field);
  if (!options) optionsOf.set(field, (options = readOptions(field)));
  return options;
}

for (const type of registry) if (type.kind === 'message') for (const field of type.fields) fieldOptions(field);

function readOptions(field: DescField): FieldOptions {
  return {
    required: hasOption(field, REQUIRED) && (getOption(field, REQUIRED) as boolean),
    values: hasOption(field, VALUES) ? (getOption(field, VALUES) as string[]) : undefined,
    format: hasOption(field, FORMAT) ? (getOption(field, FORMAT) as string) : undefined,
    internal: hasOption(field, INTERNAL) && (getOption(field, INTERNAL) as boolean),
    outputOnly: hasOption(field, OUTPUT_ONLY) && (getOption(field, OUTPUT_ONLY) as boolean),
    unbounded: hasOption(field, UNBOUNDED) && (getOption(field, UNBOUNDED) as boolean),
    notNull: hasOption(field, NOT_NULL) && (getOption(field, NOT_NULL) as boolean),
    pattern: hasOption(field, PATTERN) ? (getOption(field, PATTERN) as string) : undefined,
    omitUnset: hasOption(field, OMIT_UNSET) && (getOption(field, OMIT_UNSET) as boolean),
    viewOf: hasOption(field, VIEW_OF) ? (getOption(field, VIEW_OF) as string) : undefined,
    nullWhenEmpty: hasOption(field, NULL_WHEN_EMPTY) && (getOption(field, NULL_WHEN_EMPTY) as boolean),
    secret: hasOption(field, SECRET) ? (getOption(field, SECRET) as string) : undefined,
  };
}

/** Where an answer of this message holds a secret (`secret`, in it or in its messages), by its JSON path. */
export function secretsOf(desc: DescMessage, path: string[] = [], seen = new Set<string>()): AnswerSecret[] {
  if (seen.has(desc.typeName)) return [];
  seen.add(desc.typeName);
  return desc.fields.flatMap((field) => {
    const kind = fieldOptions(field).secret;
    if (kind) return [{ path: [...path, field.name], kind: kind as AnswerSecret['kind'] }];
    return field.fieldKind === 'message' ? secretsOf(field.message, [...path, field.name], new Set(seen)) : [];
  });
}

/** The example written beside the contract for a message, in its JSON form. */
export function exampleOf(desc: DescMessage): unknown {
  return examples[desc.typeName];
}

/** The leading comment of a message or a field in its .proto file, as one line of prose. */
export function commentOf(desc: DescMessage | DescField): string | undefined {
  const file = desc.kind === 'message' ? desc.file : desc.parent.file;
  const location = locationsOf(file).get(sourcePath(desc).join('.'));
  const text = (location?.leadingComments ?? location?.trailingComments ?? '').trim();
  return text ? text.replace(/\s*\n\s*/g, ' ') : undefined;
}

type SourceLocation = NonNullable<DescFile['proto']['sourceCodeInfo']>['location'][number];
const locationsByFile = new WeakMap<DescFile, Map<string, SourceLocation>>();

/** A file's source locations by their path (`4.2.2.0`), indexed once: a start asks for every message and field. */
function locationsOf(file: DescFile): Map<string, SourceLocation> {
  let locations = locationsByFile.get(file);
  if (!locations) {
    locations = new Map();
    // The first location of a path, as a search from the start would find it.
    for (const location of file.proto.sourceCodeInfo?.location ?? [])
      if (!locations.has(location.path.join('.'))) locations.set(location.path.join('.'), location);
    locationsByFile.set(file, locations);
  }
  return locations;
}

/** Where a message or field is in its file's descriptor (FileDescriptorProto's field numbers: 4 messages, 3 nested, 2 fields). */
function sourcePath(desc: DescMessage | DescField): number[] {
  if (desc.kind === 'field') return [...sourcePath(desc.parent), 2, desc.parent.proto.field.indexOf(desc.proto)];
  if (desc.parent) return [...sourcePath(desc.parent), 3, desc.parent.proto.nestedType.indexOf(desc.proto)];
  return [4, desc.file.proto.messageType.indexOf(desc.proto)];
}
