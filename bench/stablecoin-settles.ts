// Stablecoin intent settles through commerce (decision 0036): how many a second commerce verifies and records.
// Each settle takes a cosigned USDX transfer handed over whole (EF hex): commerce decodes it, runs the script
// interpreter on its cosigned input (the cosigner's approval), broadcasts it to the local chain (which validates
// and indexes it), reads the token indexer's verdict, has pos mark the order paid under its lock, and writes the
// transfer, the intent's success and the payment event in one transaction. Setup (timed apart): --intents (200)
// intents for $1.00 each, and for each a customer with USDX from the chain's stablecoin faucet whose transfer
// the chain's cosigner approves. Then --concurrency (16) callers settle them all. At the end every intent must
// have succeeded exactly once and books must hold one entry per intent. With --postgres, pgbench's TPC-B-like
// transaction on the same server is run for reference.
// What runs where (2 cores): a child process runs the local chain (no timed mining), books, p2p, pos and commerce
// on one in-process event transport, each on a fresh PGlite data dir (--postgres URL: fresh PostgreSQL
// databases). This process is the customers' wallets and the callers, speaking commerce's gRPC as the gateway does.
// Usage: pnpm bench:stablecoin [--intents N] [--concurrency N] [--postgres URL]   (build first)
import { fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { HD, P2PKH, PrivateKey, Transaction } from '@bsv/sdk';
import { cosignOwnerUnlock, createChainClient, tokenTransferOutput } from '@ctk/chain';
import { requestFaucet, requestStablecoinFaucet } from '@ctk/chain/local';
import { BooksServiceDefinition } from '@ctk/proto/ctk/books/v1/books';
import { CommerceServiceDefinition, type StablecoinIntent } from '@ctk/proto/ctk/commerce/v1/commerce';
import type { OrgRef } from '@ctk/proto/ctk/common/v1/common';
import { P2pServiceDefinition } from '@ctk/proto/ctk/p2p/v1/p2p';
import { createGrpcClient, grpcUrlVariable } from '@ctk/shared';
import { eachLimited, freshDatabase, percentile, pgbenchReference, printRatios, startServiceStack } from './support.js';

const PUBLIC_URL = 'https://pay.example.com';
const APPS = ['books', 'p2p', 'pos', 'commerce'] as const;

/** The child: the local chain and the apps in one process; answers their addresses when listening. */
async function runStack(): Promise<void> {
  const stack = await startServiceStack(APPS, {
    dataDir: process.env.BENCH_DATA_DIR ?? '',
    // Each intent holds two of the merchant's addresses (its order's and its own) until paid: room for all at once.
    extra: (app) =>
      app === 'pos'
        ? { POS_FIXED_RATES: 'USD=1', POS_WATCH_INTERVAL_MS: '0' }
        : app === 'p2p'
          ? { P2P_GAP_LIMIT: String(2 * Number(process.env.BENCH_INTENTS) + 20) }
          : {},
  });
  const stop = async () => {
    await stack.stop();
    process.exit(0);
  };
  process.once('SIGTERM', stop);
  process.once('disconnect', stop);
  process.send?.({ ...stack.addresses, chainUrl: stack.chain.url });
}

const ms = (n: number) => `${n.toFixed(1)} ms`;

async function runBench(): Promise<void> {
  const { values: args } = parseArgs({
    options: {
      intents: { type: 'string', default: '200' },
      concurrency: { type: 'string', default: '16' },
      postgres: { type: 'string' },
    },
  });
  const INTENTS = Number(args.intents);
  const CONCURRENCY = Number(args.concurrency);
  const dataDir = mkdtempSync(join(tmpdir(), 'ctk-bench-stablecoin-'));
  const databases: Record<string, string> = {};
  if (args.postgres)
    for (const app of APPS) databases[`BENCH_${app.toUpperCase()}_DB`] = await freshDatabase(args.postgres, `ctk_bench_stablecoin_${app}`);
  const stack = fork(import.meta.filename, [], {
    env: { ...process.env, BENCH_ROLE: 'stack', BENCH_DATA_DIR: dataDir, BENCH_INTENTS: String(INTENTS), ...databases },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  try {
    const addresses = await new Promise<Record<string, string>>((ready, fail) => {
      stack.once('message', (message) => ready(message as Record<string, string>));
      stack.once('exit', (code) => fail(new Error(`the stack exited with ${code}`)));
    });
    const chainUrl = addresses.chainUrl!;
    const commerce = createGrpcClient(CommerceServiceDefinition, addresses[grpcUrlVariable('commerce')]!);
    const books = createGrpcClient(BooksServiceDefinition, addresses[grpcUrlVariable('books')]!);
    const id = randomUUID();
    const org: OrgRef = { id, handle: `stablecoin-bench-${id.slice(0, 8)}` };
    const p2p = createGrpcClient(P2pServiceDefinition, addresses[grpcUrlVariable('p2p')]!);
    await p2p.setWallet({ org, walletXpub: HD.fromRandom().derive("m/44'/236'/0'").toPublic().toString() });
    p2p.close();
    await books.setTaxSettings({ org, jurisdiction: 'US-CA', pricesIncludeTax: true });
    const chain = createChainClient({ network: 'local', localUrl: chainUrl });
    const { tokenId, cosignerPublicKey } = await chain.stablecoin();
    console.log(`Stablecoin intent settles through commerce (${args.postgres ? 'PostgreSQL' : 'PGlite'}): ${INTENTS} intents of $1.00`);

    let started = performance.now();
    const prepared: { intent: StablecoinIntent; hex: string }[] = [];
    await eachLimited(
      Array.from({ length: INTENTS }, (_, i) => i),
      8,
      async () => {
        const { intent } = await commerce.createStablecoinIntent(
          {
            org,
            amountCents: 100n,
            description: 'Bench payment',
            createdBy: 'bench',
            callerRole: 'owner',
            publicUrl: PUBLIC_URL,
          },
          { timeoutMs: 60_000 },
        );
        const units = BigInt(intent!.payment!.tokenAmount);
        const key = PrivateKey.fromRandom();
        const address = key.toAddress('testnet');
        const usdx = await requestStablecoinFaucet(chainUrl, address, units);
        const fees = await requestFaucet(chainUrl, address, 10_000);
        const tx = new Transaction();
        const usdxSource = Transaction.fromHex(usdx.rawtx);
        const feeSource = Transaction.fromHex(fees.raw_tx);
        tx.addInput({ sourceTransaction: usdxSource, sourceOutputIndex: usdx.vout, unlockingScriptTemplate: cosignOwnerUnlock(key) });
        tx.addInput({ sourceTransaction: feeSource, sourceOutputIndex: fees.vout, unlockingScriptTemplate: new P2PKH().unlock(key) });
        tx.addOutput(tokenTransferOutput({ address: intent!.payment!.address, tokenId, amount: units, cosignerPublicKey }));
        tx.addOutput({ satoshis: feeSource.outputs[fees.vout]!.satoshis! - 400, lockingScript: new P2PKH().lock(address) });
        await tx.sign();
        prepared.push({ intent: intent!, hex: (await chain.cosign(tx)).toHexEF() });
      },
    );
    console.log(`  setup: ${INTENTS} intents and cosigned transfers in ${((performance.now() - started) / 1000).toFixed(1)} s`);

    const latencies: number[] = [];
    const failures = new Map<string, { count: number; first: string }>();
    started = performance.now();
    await eachLimited(prepared, CONCURRENCY, async ({ intent, hex }) => {
      const at = performance.now();
      try {
        const { intent: settled } = await commerce.settleStablecoinIntent(
          { paymentId: intent.id, transaction: hex, publicUrl: PUBLIC_URL },
          { timeoutMs: 60_000 },
        );
        if (settled?.status !== 'succeeded')
          throw Object.assign(new Error(`intent ${intent.id} is ${settled?.status}`), { code: 'not_succeeded' });
        latencies.push(performance.now() - at);
      } catch (error) {
        const code = (error as { code?: string }).code ?? 'error';
        const failure = failures.get(code) ?? { count: 0, first: error instanceof Error ? error.message : String(error) };
        failure.count++;
        failures.set(code, failure);
      }
    });
    const elapsed = (performance.now() - started) / 1000;
    latencies.sort((a, b) => a - b);
    const rate = latencies.length / elapsed;
    console.log(
      `  settles: ${rate.toFixed(0)}/s (${latencies.length} in ${elapsed.toFixed(1)} s at ${CONCURRENCY} callers), p50 ${ms(percentile(latencies, 50))}, p99 ${ms(percentile(latencies, 99))}, failures ${[...failures.values()].reduce((sum, f) => sum + f.count, 0)}`,
    );
    for (const [code, { count, first }] of failures) console.log(`    ${code}: ${count} (first: ${first})`);

    // Every intent succeeded once, and books posted one entry for each.
    const deadline = Date.now() + 60_000;
    let posted = 0;
    for (;;) {
      posted = 0;
      let cursor: string | undefined;
      do {
        const page = await books.listJournalEntries({ org, limit: 100, cursor });
        posted += page.entries.length;
        cursor = page.nextCursor || undefined;
      } while (cursor);
      if (posted >= latencies.length || Date.now() > deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const exact = posted === latencies.length && failures.size === 0;
    console.log(`  books: ${posted} entries for ${latencies.length} settled intents (${exact ? 'exact' : 'NOT EXACT'})`);
    if (!exact) process.exitCode = 1;

    if (args.postgres)
      printRatios([await pgbenchReference(args.postgres, 'ctk_bench_stablecoin_pgbench', CONCURRENCY)], CONCURRENCY, { 'settles/s': rate });
    commerce.close();
    books.close();
  } finally {
    stack.kill('SIGTERM');
    await new Promise((resolve) => stack.once('exit', resolve));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.env.BENCH_ROLE === 'stack') await runStack();
else await runBench();
