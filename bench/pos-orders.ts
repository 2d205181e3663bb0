// Orders at the counter, through the gateway: (1) how many orders a second the gateway creates (staff's
// POST /api/pos/orders: pricing with books' tax rate, a receiving output from p2p, the order row) over
// --merchants (20) cafes, at --connections (10) for --seconds (10), and the CPU each cost, after
// --warm-up-seconds (10) of the same reported apart (V8 still compiling the code the requests run); (2) how long the BIP270 path takes from the wallet posting its
// payment to the order being paid, at a steady --rate (5/s) for --payments (300, after --warm-up 10
// reported apart): the clock starts when the Payment is posted to the order's paymentUrl and stops (a) when
// the PaymentACK answers (pos has settled the payment through p2p: verified, broadcast to the chain and
// recorded) and (b) when the public GET /api/pos/orders/:n answers "paid" (polled every 10 ms).
// What runs where (2 cores): a child process runs what `pnpm up` runs for this path (the local chain
// without timed mining, books, p2p and pos on one in-process event transport, the gateway over HTTP), each
// app on a fresh PGlite data dir (--postgres URL: fresh PostgreSQL databases). This process is the staff
// (autocannon), the customers' wallets and the customers' phones. With --postgres it ends with the orders a
// second over pgbench's transactions a second.
// Usage: pnpm bench:orders [--seconds N] [--connections N] [--merchants N] [--payments N] [--rate N] [--warm-up N] [--warm-up-seconds N] [--postgres URL] [--cpu-prof DIR]   (build first)
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { LockingScript, P2PKH, PrivateKey, Transaction } from '@bsv/sdk';
import { mineBlocks, requestFaucet } from '@ctk/chain/local';
import autocannon from 'autocannon';
import { http, type HttpAnswer } from '../apps/gateway/test/wallet-http.js';
import {
  cpuPerRequest,
  cpuSnapshot,
  expectOk,
  freshDatabase,
  onboardCafe,
  percentile,
  pgbenchReference,
  printRatios,
  stackExecArgv,
  startDiskProbe,
  startGateway,
  startServiceStack,
} from './support.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The child: the local chain, books, p2p, pos and the gateway in one process; answers {base, chainUrl} when listening. */
async function runStack(): Promise<void> {
  // Each unpaid order holds one of its merchant's receiving addresses (decision 0022), at most P2P_GAP_LIMIT at
  // once (20 by default): the merchants take the widest window p2p allows, or the run would measure that refusal.
  const stack = await startServiceStack(['books', 'p2p', 'pos'], {
    dataDir: process.env.BENCH_DATA_DIR ?? '',
    extra: (app): Record<string, string> => (app === 'p2p' ? { P2P_GAP_LIMIT: '1000' } : {}),
  });
  const { base, gateway } = await startGateway(stack);
  const stop = async () => {
    await stack.stop([gateway]);
    process.exit(0);
  };
  process.once('SIGTERM', stop);
  process.once('disconnect', stop);
  process.send?.({ base, chainUrl: stack.chain.url });
}

type Json = HttpAnswer['json'];

/** A merchant of the bench: its owner's key (the staff) and the body of its counter order. */
type Merchant = { headers: Record<string, string>; orderBody: Json };

/** A cafe with two items, and its counter order of both with a tip. */
async function onboardMerchant(base: string, n: number): Promise<Merchant> {
  const { handle, owner, items } = await onboardCafe(base, `Order Bench Cafe ${n}`, [
    { name: 'Flat white', price_cents: 450, currency: 'USD', modifiers: [{ name: 'Oat milk', price_cents: 50 }] },
    { name: 'Croissant', price_cents: 325, currency: 'USD' },
  ]);
  const orderBody = {
    org_handle: handle,
    lines: [
      { item_id: items[0].id, quantity: 2, modifiers: [{ modifier_id: items[0].modifiers[0].id }] },
      { item_id: items[1].id, quantity: 1 },
    ],
    tip_basis_points: 1000,
  };
  return { headers: owner, orderBody };
}

const ms = (n: number) => `${n.toFixed(0)} ms`;

type Payment = { warmUp: boolean; postedAt?: number; ackedAt?: number; paidSeenAt?: number };

async function runBench(): Promise<void> {
  const { values: args } = parseArgs({
    options: {
      seconds: { type: 'string', default: '10' },
      connections: { type: 'string', default: '10' },
      payments: { type: 'string', default: '300' },
      rate: { type: 'string', default: '5' },
      'warm-up': { type: 'string', default: '10' },
      'warm-up-seconds': { type: 'string', default: '10' },
      merchants: { type: 'string', default: '20' },
      postgres: { type: 'string' },
      'cpu-prof': { type: 'string' },
    },
  });
  const PAYMENTS = Number(args.payments);
  const RATE = Number(args.rate);
  const WARM_UP = Number(args['warm-up']);
  const TOTAL = WARM_UP + PAYMENTS;

  // pgbench first, with nothing else running, on the server the stack's databases will use (and again once the stack stopped).
  const pgbench = args.postgres ? await pgbenchReference(args.postgres, 'ctk_bench_orders_pgbench', 16) : undefined;
  const dataDir = mkdtempSync(join(tmpdir(), 'ctk-bench-orders-'));
  const databases: Record<string, string> = {};
  if (args.postgres)
    for (const app of ['gateway', 'books', 'p2p', 'pos'])
      databases[`BENCH_${app.toUpperCase()}_DB`] = await freshDatabase(args.postgres, `ctk_bench_orders_${app}`);
  const stack = fork(import.meta.filename, [], {
    execArgv: stackExecArgv(args['cpu-prof']),
    env: { ...process.env, BENCH_ROLE: 'stack', BENCH_DATA_DIR: dataDir, ...databases },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  // The figures the ratios are printed for, once the stack has stopped and pgbench has run again.
  let figures: Record<string, number> | undefined;
  try {
    const { base, chainUrl } = await new Promise<{ base: string; chainUrl: string }>((ready, fail) => {
      stack.once('message', (message) => ready(message as { base: string; chainUrl: string }));
      stack.once('exit', (code) => fail(new Error(`the stack exited with ${code}`)));
    });

    // The merchants of a platform: one merchant's unpaid orders hold at most P2P_GAP_LIMIT of its receiving
    // addresses (docs/performance.md), so the orders spread over them; the BIP270 payments go to the first.
    const merchants: Merchant[] = [];
    for (let n = 0; n < Number(args.merchants); n++) merchants.push(await onboardMerchant(base, n));
    const { headers, orderBody } = merchants[0]!;

    // (1) Order creation through the gateway: a warm-up of the same, then the phase measured.
    let made = 0;
    const createOrders = async (seconds: number, phase: string): Promise<number> => {
      const cpu = cpuSnapshot(stack.pid);
      const created = await autocannon({
        url: `${base}/api/pos/orders`,
        method: 'POST',
        connections: Number(args.connections),
        duration: seconds,
        headers: { 'content-type': 'application/json' },
        requests: [
          {
            setupRequest: (request) => {
              const merchant = merchants[made++ % merchants.length]!;
              return { ...request, headers: { ...request.headers, ...merchant.headers }, body: JSON.stringify(merchant.orderBody) };
            },
          },
        ],
      });
      const non201 = created.requests.total - (created['2xx'] ?? 0);
      console.log(
        `  POST /api/pos/orders${phase}: ${created.requests.average.toFixed(0)} orders/s (${created.requests.total} in all), p50 ${created.latency.p50} ms, p99 ${created.latency.p99} ms, non-2xx ${non201}`,
      );
      console.log(`    ${cpuPerRequest(cpu, stack.pid, created.requests.total)}`);
      if (non201 > 0) process.exitCode = 1;
      return created.requests.average;
    };
    console.log(
      `Orders: creation over ${merchants.length} merchants at ${args.connections} connections for ${args.seconds} s, after ${args['warm-up-seconds']} s of warm-up (${args.postgres ? 'PostgreSQL' : 'PGlite'})...`,
    );
    if (Number(args['warm-up-seconds']) > 0) await createOrders(Number(args['warm-up-seconds']), ', warm-up');
    const ordersPerSecond = await createOrders(Number(args.seconds), '');

    // (2) BIP270: pay to paid.
    console.log(`  ${TOTAL} customers funded by the faucet...`);
    const customers: { key: PrivateKey; source: Transaction; vout: number }[] = [];
    for (let i = 0; i < TOTAL; i++) {
      const key = PrivateKey.fromRandom();
      const paid = await requestFaucet(chainUrl, key.toAddress('testnet'), 50_000_000);
      customers.push({ key, source: Transaction.fromHex(paid.raw_tx), vout: paid.vout });
    }
    await mineBlocks(chainUrl);

    const failures = new Map<string, { count: number; first: string }>();
    const fail = (stage: string, error: unknown) => {
      const failure = failures.get(stage) ?? { count: 0, first: error instanceof Error ? error.message : String(error) };
      failure.count++;
      failures.set(stage, failure);
    };
    const payments: Payment[] = [];

    /** Staff open an order; the customer's wallet reads its BIP270 request, signs, and (on the clock) pays. */
    const pay = async (index: number): Promise<void> => {
      const payment: Payment = { warmUp: index < WARM_UP };
      payments.push(payment);
      const customer = customers[index]!;
      try {
        const order = await expectOk(http('POST', `${base}/api/pos/orders`, orderBody, headers), 'create the order', 201);
        const request = await expectOk(http('GET', order.payment_request_url), 'payment request');
        const tx = new Transaction();
        tx.addInput({
          sourceTransaction: customer.source,
          sourceOutputIndex: customer.vout,
          unlockingScriptTemplate: new P2PKH().unlock(customer.key),
        });
        let paying = 0;
        for (const output of request.outputs as { script: string; amount: number }[]) {
          tx.addOutput({ lockingScript: LockingScript.fromHex(output.script), satoshis: output.amount });
          paying += output.amount;
        }
        tx.addOutput({
          lockingScript: new P2PKH().lock(customer.key.toAddress('testnet')),
          satoshis: customer.source.outputs[customer.vout]!.satoshis! - paying - 200,
        });
        await tx.sign();
        payment.postedAt = performance.now();
        const ack = await expectOk(
          http('POST', request.paymentUrl, { transaction: tx.toHex(), merchantData: request.merchantData, memo: request.memo }),
          'BIP270 payment',
        );
        payment.ackedAt = performance.now();
        if (ack.error) throw new Error(`refused: ${JSON.stringify(ack)}`);
        for (;;) {
          const read = await expectOk(http('GET', `${base}/api/pos/orders/${order.order_number}`), 'read the order');
          if (read.status === 'paid' || read.status === 'confirmed') break;
          if (performance.now() - payment.postedAt > 30_000) throw new Error(`still ${read.status} after 30 s`);
          await sleep(10);
        }
        payment.paidSeenAt = performance.now();
      } catch (error) {
        fail(payment.postedAt === undefined ? 'before paying' : 'paying', error);
      }
    };

    console.log(`  ${WARM_UP} warm-up payments, then ${PAYMENTS} at ${RATE}/s through the BIP270 payment request`);
    const disk = startDiskProbe();
    const started = performance.now();
    const running: Promise<void>[] = [];
    for (let launched = 0; launched < TOTAL; await sleep(2)) {
      const due = Math.min(TOTAL, Math.floor(((performance.now() - started) / 1000) * RATE) + 1);
      for (; launched < due; launched++) running.push(pay(launched));
    }
    await Promise.all(running).finally(() => disk.stop());

    const measured = payments.filter((p) => !p.warmUp && p.paidSeenAt !== undefined);
    const acks = measured.map((p) => p.ackedAt! - p.postedAt!).sort((a, b) => a - b);
    const seen = measured.map((p) => p.paidSeenAt! - p.postedAt!).sort((a, b) => a - b);
    console.log(`  ${measured.length} of ${PAYMENTS} measured payments paid (after ${WARM_UP} of warm-up)`);
    console.log(
      `  payment -> PaymentACK:          p50 ${ms(percentile(acks, 50))}   p99 ${ms(percentile(acks, 99))}   max ${ms(acks.at(-1) ?? NaN)}`,
    );
    console.log(
      `  payment -> order read as paid:  p50 ${ms(percentile(seen, 50))}   p99 ${ms(percentile(seen, 99))}   max ${ms(seen.at(-1) ?? NaN)}`,
    );
    // Each payment commits three times on its way (pos's claim, p2p's record of the txid, pos's record of the
    // payment): on PostgreSQL each commit waits for the WAL's fsync, and a disk that stalls holds the payment up as long.
    console.log(`  the disk's slowest fsync of 8 KB meanwhile (the temp folder's): ${disk.slowest().toFixed(0)} ms`);
    console.log(`  failures: ${failures.size === 0 ? 'none' : [...failures.values()].reduce((sum, f) => sum + f.count, 0)}`);
    for (const [stage, { count, first }] of failures) console.log(`    ${stage}: ${count} (first: ${first})`);
    if (failures.size > 0) process.exitCode = 1;
    figures = { 'orders/s': ordersPerSecond };
  } finally {
    stack.kill('SIGTERM');
    await new Promise((r) => (stack.exitCode === null ? stack.once('exit', r) : r(undefined)));
    rmSync(dataDir, { recursive: true, force: true });
  }
  if (figures)
    printRatios(
      pgbench === undefined ? undefined : [pgbench, await pgbenchReference(args.postgres!, 'ctk_bench_orders_pgbench', 16)],
      16,
      figures,
    );
}

if (process.env.BENCH_ROLE === 'stack') await runStack();
else await runBench();
