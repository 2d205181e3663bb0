// One money path of the fault bench against a running instance, without faults: its setup, --payments
// payments (--concurrency at a time), then each accepted payment looked up in the books, as the fault bench
// ends. For writing and checking a path; the fault bench itself is bench/faults.ts.
// Usage: tsx bench/faults/try-path.ts <path module, e.g. bench/faults/paths/counter-bip270.ts> --base URL --chain URL [--payments 20] [--concurrency 5]
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { checkBooks } from './books-check.js';
import type { Accepted, PaymentPath } from './path.js';

const { values: args, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    base: { type: 'string', default: 'http://localhost:8080' },
    chain: { type: 'string', default: 'http://127.0.0.1:50070' },
    payments: { type: 'string', default: '20' },
    concurrency: { type: 'string', default: '5' },
  },
});
const module = positionals[0];
if (!module) throw new Error('Name the path module: tsx bench/faults/try-path.ts bench/faults/paths/<path>.ts');
const { path } = (await import(pathToFileURL(resolve(module)).href)) as { path: PaymentPath };
const bench = { base: args.base, chainUrl: args.chain };
await path.setup(bench);
const accepted: Accepted[] = [];
const refused: string[] = [];
let next = 0;
const started = performance.now();
await Promise.all(
  Array.from({ length: Number(args.concurrency) }, async () => {
    while (next < Number(args.payments)) {
      const n = next++;
      await path.pay(bench, n).then(
        (payment) => accepted.push(payment),
        (error: unknown) => refused.push(String(error)),
      );
    }
  }),
);
const seconds = (performance.now() - started) / 1000;
console.log(
  `${path.name}: ${accepted.length} accepted, ${refused.length} refused in ${seconds.toFixed(1)} s (${(accepted.length / seconds).toFixed(1)}/s)`,
);
for (const reason of refused.slice(0, 5)) console.log(`  refused: ${reason}`);
// Events reach the books a moment after the API answers.
await new Promise((later) => setTimeout(later, 3_000));
const verdict = await checkBooks(bench, accepted);
console.log(
  `lost ${verdict.lost.length}, doubled ${verdict.doubled.length}, entries no accepted payment accounts for ${verdict.unclaimed}`,
);
for (const payment of [...verdict.lost, ...verdict.doubled].slice(0, 5)) console.log(`  ${JSON.stringify(payment)}`);
for (const row of verdict.trialBalances)
  console.log(
    `  trial balance ${row.org} ${row.currency}: debit ${row.debit}, credit ${row.credit}${row.debit === row.credit ? '' : ' UNBALANCED'}`,
  );
process.exitCode = verdict.lost.length || verdict.doubled.length || refused.length ? 1 : 0;
