import { messageDesc } from './contract-registry.js';
import { toJson } from './json-mapping.js';
import { messageSchema } from './message-schema.js';

/**
 * A message of the contracts that a route answers from what the gateway puts together (the descriptors, a
 * merchant's profile) rather than as one RPC's response: its schema, and its JSON by the one mapping. The
 * mapping reads a value by field name, so a row given whole shows only the fields the message declares.
 */
export function messageAnswer(typeName: string) {
  const desc = messageDesc(typeName);
  return { schema: messageSchema(desc, 'answer'), json: (message: object) => toJson(desc, message as Record<string, unknown>) };
}
