// Prepaid card uses through pos (decision 0017): how many uses a second pos writes, each one transaction
// that locks the order's row, lowers the order's satoshis due, writes prepaid.redeemed to the outbox, then
// draws the balance and appends the ledger entry in one conditional statement. (1) one hot card: every use
// draws on the same card (its row lock, from the draw to the commit, serialises them), over --orders (20) open orders;
// (2) many cards: --cards (50) cards, each used on its own order, so uses of different cards run side by
// side. Each phase runs --concurrency (16) callers for --seconds (10), each use 1 minor unit. At the end the
// uses that succeeded must add up to the drop of the balances exactly.
// What runs where (2 cores): a child process runs the local chain (no timed mining), books, p2p and pos on
// one in-process event transport, each on a fresh PGlite data dir (--postgres URL: fresh PostgreSQL
// databases). This process is the counter staff, calling pos's gRPC API as the gateway does.
// Usage: pnpm bench:cards [--seconds N] [--concurrency N] [--orders N] [--cards N] [--postgres URL] [--cpu-prof DIR]   (build first)
import { fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { HD, LockingScript, P2PKH, PrivateKey, Transaction } from '@bsv/sdk';
import { mineBlocks, requestFaucet } from '@ctk/chain/local';
import type { OrgRef } from '@ctk/proto/ctk/common/v1/common';
import type { PrepaidCard } from '@ctk/proto/ctk/pos/v1/cards';
import { P2pServiceDefinition } from '@ctk/proto/ctk/p2p/v1/p2p';
import { PosServiceDefinition } from '@ctk/proto/ctk/pos/v1/pos';
import { createGrpcClient, grpcUrlVariable } from '@ctk/shared';
import {
  cpuPerRequest,
  cpuSnapshot,
  eachLimited,
  freshDatabase,
  percentile,
  pgbenchReference,
  printRatios,
  stackExecArgv,
  startServiceStack,
} from './support.js';

const PUBLIC_URL = 'https://pay.example.com';
/** A card's value (minor units) and an order's total: room for every use of a run at 1 minor unit each. */
const CARD_VALUE = 1_000_000n;
const ORDER_TOTAL = 1_000_000_000n;

/** The child: the local chain, books, p2p and pos in one process; answers {posUrl, chainUrl} when listening. */
async function runStack(): Promise<void> {
  const stack = await startServiceStack(['books', 'p2p', 'pos'], {
    dataDir: process.env.BENCH_DATA_DIR ?? '',
    // One satoshi a cent: the cards' selling orders cost the faucet's coins little.
    // Each unpaid order (the cards' selling orders, the open orders they pay) holds one of the merchant's
    // receiving addresses (decision 0022), 20 at most by default: the widest window p2p allows.
    extra: (app): Record<string, string> =>
      app === 'pos' ? { POS_FIXED_RATES: 'USD=1', POS_WATCH_INTERVAL_MS: '0' } : app === 'p2p' ? { P2P_GAP_LIMIT: '1000' } : {},
  });
  const stop = async () => {
    await stack.stop();
    process.exit(0);
  };
  process.once('SIGTERM', stop);
  process.once('disconnect', stop);
  process.send?.({
    posUrl: stack.addresses[grpcUrlVariable('pos')],
    p2pUrl: stack.addresses[grpcUrlVariable('p2p')],
    chainUrl: stack.chain.url,
  });
}

const ms = (n: number) => `${n.toFixed(1)} ms`;

async function runBench(): Promise<void> {
  const { values: args } = parseArgs({
    options: {
      seconds: { type: 'string', default: '10' },
      concurrency: { type: 'string', default: '16' },
      orders: { type: 'string', default: '20' },
      cards: { type: 'string', default: '50' },
      postgres: { type: 'string' },
      'cpu-prof': { type: 'string' },
    },
  });
  const SECONDS = Number(args.seconds);
  const CONCURRENCY = Number(args.concurrency);
  // pgbench first, with nothing else running, on the server the stack's databases will use (and again once the stack stopped).
  const pgbench = args.postgres ? await pgbenchReference(args.postgres, 'ctk_bench_cards_pgbench', CONCURRENCY) : undefined;
  const dataDir = mkdtempSync(join(tmpdir(), 'ctk-bench-cards-'));
  const databases: Record<string, string> = {};
  if (args.postgres)
    for (const app of ['books', 'p2p', 'pos'])
      databases[`BENCH_${app.toUpperCase()}_DB`] = await freshDatabase(args.postgres, `ctk_bench_cards_${app}`);
  const stack = fork(import.meta.filename, [], {
    execArgv: stackExecArgv(args['cpu-prof']),
    env: { ...process.env, BENCH_ROLE: 'stack', BENCH_DATA_DIR: dataDir, ...databases },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  // The figures the ratios are printed for, once the stack has stopped and pgbench has run again.
  let figures: Record<string, number> | undefined;
  try {
    const { posUrl, p2pUrl, chainUrl } = await new Promise<{ posUrl: string; p2pUrl: string; chainUrl: string }>((ready, fail) => {
      stack.once('message', (message) => ready(message as { posUrl: string; p2pUrl: string; chainUrl: string }));
      stack.once('exit', (code) => fail(new Error(`the stack exited with ${code}`)));
    });
    const pos = createGrpcClient(PosServiceDefinition, posUrl);
    const id = randomUUID();
    const org: OrgRef = { id, handle: `card-bench-${id.slice(0, 8)}` };
    // The wallet is p2p's to keep (decision 0028): registered there, as the gateway's PATCH does.
    const p2p = createGrpcClient(P2pServiceDefinition, p2pUrl);
    await p2p.setWallet({ org, walletXpub: HD.fromRandom().derive("m/44'/236'/0'").toPublic().toString() });
    p2p.close();
    const CARDS = Number(args.cards);
    console.log(`Prepaid card uses through pos (${args.postgres ? 'PostgreSQL' : 'PGlite'}): ${1 + CARDS} cards issued and paid...`);

    // Each card's selling order is paid by BIP270, from a coin of its own (funded, then mined).
    const issued = await Promise.all(
      Array.from({ length: 1 + CARDS }, () =>
        pos.issuePrepaidCard({ org, amountMinor: CARD_VALUE, currency: 'USD', publicUrl: PUBLIC_URL }),
      ),
    );
    const coins: { key: PrivateKey; source: Transaction; vout: number }[] = [];
    for (let i = 0; i < issued.length; i++) {
      const key = PrivateKey.fromRandom();
      const paid = await requestFaucet(chainUrl, key.toAddress('testnet'), 10_000_000);
      coins.push({ key, source: Transaction.fromHex(paid.raw_tx), vout: paid.vout });
    }
    await mineBlocks(chainUrl);
    await eachLimited(
      issued.map((answer, i) => ({ answer, coin: coins[i]! })),
      8,
      async ({ answer, coin }) => {
        const { outputs } = await pos.getPaymentRequest({ orderNumber: answer.order!.orderNumber, publicUrl: PUBLIC_URL });
        const tx = new Transaction();
        tx.addInput({
          sourceTransaction: coin.source,
          sourceOutputIndex: coin.vout,
          unlockingScriptTemplate: new P2PKH().unlock(coin.key),
        });
        let paying = 0;
        for (const output of outputs) {
          tx.addOutput({ lockingScript: LockingScript.fromHex(output.script), satoshis: Number(output.amount) });
          paying += Number(output.amount);
        }
        tx.addOutput({
          lockingScript: new P2PKH().lock(coin.key.toAddress('testnet')),
          satoshis: coin.source.outputs[coin.vout]!.satoshis! - paying - 200,
        });
        await tx.sign();
        const ack = await pos.payOrder({ orderNumber: answer.order!.orderNumber, transaction: tx.toHex(), memo: '' });
        if (ack.error) throw new Error(`the selling order was not paid: ${JSON.stringify(ack)}`);
      },
    );
    const cards = issued.map((answer) => ({ card: answer.card!, identifier: answer.card!.identifier }));
    for (const { card } of cards) {
      const { card: read } = await pos.getPrepaidCard({ id: card.id });
      if (read!.status !== 'active') throw new Error(`card ${card.id} is ${read!.status}, not active`);
    }
    const openOrder = async () =>
      (
        await pos.createOrder({
          org,
          lines: [{ itemId: '', name: 'Tab', quantity: 1n, unitPriceMinor: ORDER_TOTAL, modifiers: [] }],
          currency: 'USD',
          publicUrl: PUBLIC_URL,
        })
      ).order!.orderNumber;

    const hot = cards[0]!;
    const hotOrders = await Promise.all(Array.from({ length: Number(args.orders) }, openOrder));
    const many = cards.slice(1);
    const manyOrders = await Promise.all(many.map(openOrder));

    /** C callers using cards for `SECONDS`: each use of 1 minor unit, on the card and order `pick` gives the n-th use. */
    const phase = async (name: string, pick: (n: number) => { card: PrepaidCard; identifier: string; orderNumber: string }) => {
      const latencies: number[] = [];
      const failures = new Map<string, { count: number; first: string }>();
      let n = 0;
      const cpu = cpuSnapshot(stack.pid);
      const until = performance.now() + SECONDS * 1000;
      const started = performance.now();
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (performance.now() < until) {
            const { card, identifier, orderNumber } = pick(n++);
            const at = performance.now();
            try {
              await pos.usePrepaidCard({ org, id: card.id, identifier, orderNumber, amountMinor: 1n, publicUrl: PUBLIC_URL });
              latencies.push(performance.now() - at);
            } catch (error) {
              const code = (error as { code?: string }).code ?? 'error';
              const failure = failures.get(code) ?? { count: 0, first: error instanceof Error ? error.message : String(error) };
              failure.count++;
              failures.set(code, failure);
            }
          }
        }),
      );
      const elapsed = (performance.now() - started) / 1000;
      latencies.sort((a, b) => a - b);
      console.log(
        `  ${name}: ${(latencies.length / elapsed).toFixed(0)} uses/s (${latencies.length} in ${elapsed.toFixed(1)} s at ${CONCURRENCY} callers), p50 ${ms(percentile(latencies, 50))}, p99 ${ms(percentile(latencies, 99))}, failures ${[...failures.values()].reduce((sum, f) => sum + f.count, 0)}`,
      );
      for (const [code, { count, first }] of failures) console.log(`    ${code}: ${count} (first: ${first})`);
      console.log(`    ${cpuPerRequest(cpu, stack.pid, latencies.length)}`);
      return { uses: latencies.length, rate: latencies.length / elapsed };
    };

    const { uses: hotUses, rate: hotRate } = await phase('one hot card', (n) => ({
      ...hot,
      orderNumber: hotOrders[n % hotOrders.length]!,
    }));
    const { uses: manyUses, rate: manyRate } = await phase(`${many.length} cards`, (n) => ({
      ...many[n % many.length]!,
      orderNumber: manyOrders[n % many.length]!,
    }));

    // Every use that succeeded took exactly 1 from its card, and nothing else did.
    const drop = async (group: typeof cards) => {
      let total = 0n;
      for (const { card } of group) total += CARD_VALUE - (await pos.getPrepaidCard({ id: card.id })).card!.balanceMinor;
      return total;
    };
    const [hotDrop, manyDrop] = [await drop([hot]), await drop(many)];
    const exact = hotDrop === BigInt(hotUses) && manyDrop === BigInt(manyUses);
    console.log(
      `  balances: the hot card dropped ${hotDrop}, the others ${manyDrop}: ${exact ? 'exactly the uses that succeeded' : 'NOT the uses that succeeded'}`,
    );
    if (!exact) process.exitCode = 1;
    figures = { 'uses/s on one hot card': hotRate, [`uses/s on ${many.length} cards`]: manyRate };
    pos.close();
  } finally {
    stack.kill('SIGTERM');
    await new Promise((r) => (stack.exitCode === null ? stack.once('exit', r) : r(undefined)));
    rmSync(dataDir, { recursive: true, force: true });
  }
  if (figures)
    printRatios(
      pgbench === undefined ? undefined : [pgbench, await pgbenchReference(args.postgres!, 'ctk_bench_cards_pgbench', CONCURRENCY)],
      CONCURRENCY,
      figures,
    );
}

if (process.env.BENCH_ROLE === 'stack') await runStack();
else await runBench();
