// SPV of submitted payments: how many `verifyBeef` calls a second one process makes on fresh one-input P2PKH
// payments, each a BEEF of its mined parent (with the merkle path the local chain gave) and the payment, as
// the payment gate's /verify receives them. Every verification parses the BEEF, computes the parent's merkle
// root, asks the chain tracker whether it is the root of the block at that height, checks amounts and runs
// the script check on the payment's input. Each BEEF is a different payment.
// What runs where: the local chain in a child process (in memory, mining on request); this process prepares
// the payments, then verifies them with the chain client's tracker (a block header over HTTP, then the
// block's merkle root kept a minute, as the gate runs): (1) with the fast P2PKH check, one at a time and
// --concurrency (16) at a time; (2) with @bsv/sdk's interpreter for the script ('sdk'), on at most
// --sdk-payments (300) of them, for comparison.
// (3) with the fast check in --processes (2) processes at once, each verifying its share.
// Usage: pnpm bench:verify [--payments N] [--concurrency N] [--processes N] [--sdk-payments N]   (build first)
import { fork, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { P2PKH, PrivateKey, Transaction } from '@bsv/sdk';
import { createChainClient, scriptCheckEngine, verifyBeef, type ScriptChecks } from '@ctk/chain';
import { mineBlocks, requestFaucet } from '@ctk/chain/local';
import { freePort, percentile } from './support.js';

const { values: args } = parseArgs({
  options: {
    payments: { type: 'string', default: '2000' },
    concurrency: { type: 'string', default: '16' },
    'sdk-payments': { type: 'string', default: '300' },
    processes: { type: 'string', default: '2' },
  },
});
const PROCESSES = Number(args.processes);
const PAYMENTS = Number(args.payments);
const CONCURRENCY = Number(args.concurrency);
const SDK_PAYMENTS = Math.min(PAYMENTS, Number(args['sdk-payments']));
const COIN = 1_000;
const FEE = 50;

const yieldNow = () => new Promise((r) => setTimeout(r, 1));

async function startChain(): Promise<{ url: string; stop(): Promise<void> }> {
  const port = await freePort();
  const child = spawn(process.execPath, [resolve(import.meta.dirname, '../packages/chain/bin/local-chain.mjs')], {
    env: { ...process.env, CHAIN_PORT: String(port), CHAIN_STORE: 'memory', CHAIN_MINE_INTERVAL_MS: '0', LOG_LEVEL: 'warn' },
    stdio: 'inherit',
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      if (i > 100) throw new Error('the local chain did not start');
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return {
    url,
    stop: async () => {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    },
  };
}

/**
 * `PAYMENTS` parents, each paying `COIN` to the payer (a chain of splits off one faucet coin), broadcast and
 * mined in one block; then one payment from each parent to the merchant, as BEEF with the parent's path.
 */
async function preparePayments(url: string): Promise<Uint8Array[]> {
  const client = createChainClient({ network: 'local', localUrl: url, retries: 0 });
  const payer = PrivateKey.fromRandom();
  const faucet = await requestFaucet(url, payer.toAddress('testnet'), PAYMENTS * (COIN + FEE) + 10_000);
  let source = Transaction.fromHex(faucet.raw_tx);
  let vout = faucet.vout;
  const parents: Transaction[] = [];
  for (let i = 0; i < PAYMENTS; i++) {
    const tx = new Transaction();
    tx.addInput({ sourceTransaction: source, sourceOutputIndex: vout, unlockingScriptTemplate: new P2PKH().unlock(payer) });
    tx.addOutput({ lockingScript: new P2PKH().lock(payer.toAddress('testnet')), satoshis: COIN });
    tx.addOutput({ lockingScript: new P2PKH().lock(payer.toAddress('testnet')), satoshis: source.outputs[vout]!.satoshis! - COIN - FEE });
    await tx.sign();
    await client.broadcast(tx.toBinary());
    parents.push(tx);
    source = tx;
    vout = 1;
  }
  await mineBlocks(url);
  const merchant = PrivateKey.fromRandom().toAddress('testnet');
  const beefs: Uint8Array[] = [];
  for (const parent of parents) {
    parent.merklePath = (await client.getStatus(parent.id('hex'))).merklePath!;
    const tx = new Transaction();
    tx.addInput({ sourceTransaction: parent, sourceOutputIndex: 0, unlockingScriptTemplate: new P2PKH().unlock(payer) });
    tx.addOutput({ lockingScript: new P2PKH().lock(merchant), satoshis: COIN - FEE });
    await tx.sign();
    beefs.push(Uint8Array.from(tx.toBEEF()));
    if (beefs.length % 20 === 0) await yieldNow();
  }
  return beefs;
}

async function measure(label: string, beefs: Uint8Array[], tracker: ChainTracker, scriptChecks: ScriptChecks, concurrency: number) {
  for (const beef of beefs.slice(0, 20)) await verifyBeef(beef, tracker, { scriptChecks });
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < beefs.length) {
        const beef = beefs[next++]!;
        const t0 = performance.now();
        await verifyBeef(beef, tracker, { scriptChecks });
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const ms = (value: number) => (value < 1 ? value.toFixed(2) : value.toFixed(1));
  console.log(
    `  ${label}: ${beefs.length} in ${seconds.toFixed(2)} s: ${Math.round(beefs.length / seconds)} verifications/s, ` +
      `p50 ${ms(percentile(latencies, 50))} ms, p99 ${ms(percentile(latencies, 99))} ms`,
  );
}

/**
 * The same verifications spread over `PROCESSES` processes (one per core, as p2p replicas would run), each
 * given its share of the BEEFs; the figure is all of them over the wall time from the first start to the last end.
 */
async function measureProcesses(beefs: Uint8Array[], chainUrl: string) {
  const shares = Array.from({ length: PROCESSES }, (_, n) => beefs.filter((_, i) => i % PROCESSES === n));
  const children = shares.map(() =>
    fork(import.meta.filename, [], {
      env: { ...process.env, BENCH_ROLE: 'verifier', BENCH_CHAIN_URL: chainUrl },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    }),
  );
  // Each child warms up (its tracker reads the block's root once), says so, then verifies its share when told.
  await Promise.all(
    children.map(
      (child, n) =>
        new Promise((ready) => {
          child.once('message', ready);
          child.send({ warm: Buffer.from(shares[n]![0]!).toString('base64') });
        }),
    ),
  );
  const started = performance.now();
  await Promise.all(
    children.map(
      (child, n) =>
        new Promise((done) => {
          child.once('message', done);
          child.send({ beefs: shares[n]!.map((beef) => Buffer.from(beef).toString('base64')) });
        }),
    ),
  );
  const seconds = (performance.now() - started) / 1000;
  for (const child of children) child.disconnect();
  console.log(
    `  fast, ${PROCESSES} processes: ${beefs.length} in ${seconds.toFixed(2)} s: ${Math.round(beefs.length / seconds)} verifications/s`,
  );
}

/** A verifier process: verifies what it is sent, answers when done. */
async function runVerifier(): Promise<void> {
  const tracker = createChainClient({ network: 'local', localUrl: process.env.BENCH_CHAIN_URL!, retries: 0 }).chainTracker;
  process.on('message', async (message: { warm?: string; beefs?: string[] }) => {
    if (message.warm) await verifyBeef(Buffer.from(message.warm, 'base64'), tracker);
    for (const beef of message.beefs ?? []) await verifyBeef(Buffer.from(beef, 'base64'), tracker);
    process.send?.('done');
  });
  process.once('disconnect', () => process.exit(0));
}

if (process.env.BENCH_ROLE === 'verifier') {
  await runVerifier();
} else {
  await main();
}

async function main() {
  const chain = await startChain();
  try {
    const beefs = await preparePayments(chain.url);
    const tracker = createChainClient({ network: 'local', localUrl: chain.url, retries: 0 }).chainTracker;
    console.log(
      `verifyBeef on ${PAYMENTS} fresh one-input P2PKH payments (BEEF of ${beefs[0]!.length} bytes: mined parent with its path, then the payment); fast = ${scriptCheckEngine()}`,
    );
    await measure('fast, 1 at a time', beefs, tracker, 'fast', 1);
    await measure(`fast, ${CONCURRENCY} at a time`, beefs, tracker, 'fast', CONCURRENCY);
    if (PROCESSES > 1) await measureProcesses(beefs, chain.url);
    await measure('sdk, 1 at a time', beefs.slice(0, SDK_PAYMENTS), tracker, 'sdk', 1);
  } finally {
    await chain.stop();
  }
}
