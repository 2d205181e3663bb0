// The cost of the gateway's one JSON mapping rule (apps/gateway/src/contract): per request, what it adds to
// a call. Times, in one process, with the gateway's own modules: (1) an answer, a pos Item with three
// modifiers, proto message to JSON (toJson); (2) a request, the documented CreateItemRequest body, validated
// by its derived schema and turned into the proto request (schema + fromJson); (3) a page of 50 items to JSON.
// Each is run --iterations times after a warm-up; prints µs per operation (mean and p99 of 1,000-op batches).
// Usage: pnpm bench:json [--iterations N]   (build first: pnpm build)
import { parseArgs } from 'node:util';
import { percentile } from './support.js';

const { values: args } = parseArgs({ options: { iterations: { type: 'string', default: '200000' } } });
const ITERATIONS = Number(args.iterations);
const contract = '../apps/gateway/dist/contract';
const { messageDesc, exampleOf } = await import(`${contract}/contract-registry.js`);
const { toJson, fromJson } = await import(`${contract}/json-mapping.js`);
const { messageSchema } = await import(`${contract}/message-schema.js`);

const itemDesc = messageDesc('ctk.pos.v1.Item');
const requestDesc = messageDesc('ctk.pos.v1.CreateItemRequest');
const requestSchema = messageSchema(requestDesc, 'request', ['org']);
const body = exampleOf(requestDesc) as Record<string, unknown>;
// The message pos answers, as ts-proto decodes it: camelCase keys, bigint for int64.
const item = fromJson(itemDesc, exampleOf(itemDesc) as Record<string, unknown>);
const page = Array.from({ length: 50 }, () => item);

function time(name: string, run: () => void, perOp = 1) {
  for (let i = 0; i < 20_000; i++) run();
  const batches: number[] = [];
  const batch = 1_000;
  for (let done = 0; done < ITERATIONS; done += batch) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < batch; i++) run();
    batches.push(Number(process.hrtime.bigint() - start) / 1_000 / batch / perOp);
  }
  const mean = batches.reduce((a, b) => a + b, 0) / batches.length;
  console.log(
    `${name.padEnd(52)} ${mean.toFixed(2)} µs mean, ${percentile(
      [...batches].sort((a, b) => a - b),
      99,
    ).toFixed(2)} µs p99 (of 1,000-op batches)`,
  );
}

console.log(`JSON mapping of the contract, ${ITERATIONS} operations each`);
time('(1) answer: Item with 3 modifiers to JSON', () => toJson(itemDesc, item));
time('(2) request: CreateItem body checked and mapped', () => fromJson(requestDesc, requestSchema.parse(body)));
time('(3) a page of 50 items to JSON (per page)', () => page.map((i) => toJson(itemDesc, i)));
