import type { z } from 'zod';
import { pageOf } from '../routes/answer-schema.js';
import { messageDesc, secretsOf } from './contract-registry.js';
import { toJson } from './json-mapping.js';
import { messageSchema } from './message-schema.js';

type Page = { data: object[]; next_cursor: string | null };

/**
 * A message of the contracts that a route answers from what the gateway holds (its own rows: keys, members,
 * organisations) or puts together, rather than as one RPC's response: its schema, its page's, and its JSON
 * by the one mapping. The mapping reads a value by field name, so a row given whole shows only the fields
 * the message declares (never a key's hash).
 */
export function messageAnswer(typeName: string) {
  const desc = messageDesc(typeName);
  const schema = messageSchema(desc, 'answer');
  const json = (message: object) => toJson(desc, message as Record<string, unknown>);
  return {
    schema,
    json,
    /** Where it holds a secret: a route answering it declares them (`secrets`). */
    secrets: secretsOf(desc),
    /** `{"data": [...], "next_cursor"}` of the message. */
    page: pageOf(desc.name, schema as z.ZodType<object>),
    pageJson: (page: Page) => ({ data: page.data.map(json), next_cursor: page.next_cursor }),
  };
}
