// Paymail payment latency: how long a P2P paymail payment takes from broadcast to journal entry, at a steady
// rate (10 payments/s by default), on the embedded default.
// What runs where (2 cores): a child process (this file, forked with BENCH_ROLE=stack) runs what `pnpm up`
// runs for this path, as scripts/start-all.mjs starts it: the local chain (no timed mining), books and p2p
// sharing one in-process event transport, and the gateway over HTTP (the other services are not started:
// the gateway points at a closed port for them). Each app has a fresh PGlite data dir in a temporary
// directory, or with --postgres a fresh PostgreSQL database (gateway, books, p2p; the chain keeps its
// blocks in the temporary directory). This process is the customers' wallets and the merchant's reader,
// so their CPU (signing, HTTP clients) does not take event-loop time from the services.
// Before the clock: the merchant onboards and registers its wallet xpub and identity key; each customer
// gets a faucet coin (one block mined, so they are confirmed). Then, at the rate, each payment: the P2P
// payment destination, the transaction built and signed, and the clock starts when it is submitted to
// P2P receive transaction (p2p verifies it, broadcasts it to the chain and commits the payment event);
// it stops when the entry with that txid is readable through GET /api/v1/orgs/:handle/ledger, which a
// reader polls every 10 ms from the oldest payment not yet seen (so up to one poll interval of sampling).
// The first --warm-up payments are reported apart. Prints the receive-transaction answer time and the
// broadcast-to-journal time (p50, p99, max), and every failure by stage with its first error.
// Usage: pnpm bench:paymail [--payments N] [--rate N] [--warm-up N] [--postgres URL]   (build first)
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { BSM, LockingScript, P2PKH, PrivateKey, Transaction, Utils } from '@bsv/sdk';
import { mineBlocks, requestFaucet, startLocalChain } from '@ctk/chain/local';
import { createLogger, encodeCursor, grpcUrlVariable, inProcessTransport, loadConfig, SERVICE_NAMES, startService } from '@ctk/shared';
import { http, merchantKeys } from '../apps/gateway/test/wallet-http.js';
import { expectOk, freePort, freshDatabase, percentile } from './support.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The child: the local chain, books, p2p and the gateway in one process; answers {base, chainUrl} when listening. */
async function runStack(): Promise<void> {
  const { BENCH_DATA_DIR: dataDir = '', BENCH_GATEWAY_DB, BENCH_BOOKS_DB, BENCH_P2P_DB } = process.env;
  const logLevel = 'warn';
  const { configSchema: booksSchema, service: booksService } = await import('../apps/books/dist/app.js');
  const { configSchema: p2pSchema, service: p2pService } = await import('../apps/p2p/dist/app.js');
  const { service: gatewayService } = await import('../apps/gateway/dist/app.js');
  const { configSchema: gatewaySchema } = await import('../apps/gateway/dist/config.js');
  const env = (databaseUrl: string | undefined, extra: Record<string, string>) => ({
    CTK_DATA_DIR: dataDir,
    LOG_LEVEL: logLevel,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...extra,
  });

  const chain = await startLocalChain({ dataDir, port: 0, mineIntervalMs: 0, logger: createLogger('local-chain', logLevel) });
  const chainEnv = { CHAIN_NETWORK: 'local', CHAIN_LOCAL_URL: chain.url };
  const transport = inProcessTransport({ logger: createLogger('start-all', logLevel) });
  const books = await startService(booksService, loadConfig(booksSchema, env(BENCH_BOOKS_DB, { GRPC_PORT: '0' })), {
    logger: createLogger('books', logLevel),
    transport,
  });
  const p2p = await startService(p2pService, loadConfig(p2pSchema, env(BENCH_P2P_DB, { GRPC_PORT: '0', ...chainEnv })), {
    logger: createLogger('p2p', logLevel),
    transport,
  });
  const port = await freePort();
  const base = `http://localhost:${port}`;
  // Only books and p2p run: every other service's address is a closed port (the gateway answers 503 for them).
  const down = Object.fromEntries(SERVICE_NAMES.map((name) => [grpcUrlVariable(name), '127.0.0.1:1']));
  const gateway = await startService(
    gatewayService,
    loadConfig(
      gatewaySchema,
      env(BENCH_GATEWAY_DB, {
        PORT: String(port),
        HOST: 'localhost',
        ...chainEnv,
        ...down,
        BOOKS_GRPC_URL: `127.0.0.1:${books.port}`,
        P2P_GRPC_URL: `127.0.0.1:${p2p.port}`,
        CTK_RATE_LIMIT_PER_MINUTE: '100000000',
        CTK_SIGNUP_RATE_LIMIT_PER_MINUTE: '100000000',
        // Every customer here asks from one address; a real one asks from its own.
        CTK_PAYMAIL_DESTINATION_RATE_LIMIT_PER_MINUTE: '100000000',
      }),
    ),
  );
  const stop = async () => {
    for (const app of [gateway, p2p, books]) await app.close().catch(() => undefined);
    await transport.close();
    await chain.close();
    process.exit(0);
  };
  process.once('SIGTERM', stop);
  process.once('disconnect', stop);
  process.send?.({ base, chainUrl: chain.url });
}

const ms = (n: number) => `${n.toFixed(0)} ms`;

type Payment = { warmUp: boolean; txid?: string; submittedWall?: Date; submittedAt?: number; answeredAt?: number; journaledAt?: number };

/** The parent: the customers' wallets and the merchant's reader. */
async function runBench(): Promise<void> {
  const { values: args } = parseArgs({
    options: {
      payments: { type: 'string', default: '300' },
      rate: { type: 'string', default: '10' },
      'warm-up': { type: 'string', default: '20' },
      postgres: { type: 'string' },
    },
  });
  const PAYMENTS = Number(args.payments);
  const RATE = Number(args.rate);
  const WARM_UP = Number(args['warm-up']);
  const TOTAL = WARM_UP + PAYMENTS;
  const POLL_MS = 10;
  const SATOSHIS = 1_000;

  const dataDir = mkdtempSync(join(tmpdir(), 'ctk-bench-paymail-'));
  const databases = args.postgres
    ? {
        BENCH_GATEWAY_DB: await freshDatabase(args.postgres, 'ctk_bench_paymail_gateway'),
        BENCH_BOOKS_DB: await freshDatabase(args.postgres, 'ctk_bench_paymail_books'),
        BENCH_P2P_DB: await freshDatabase(args.postgres, 'ctk_bench_paymail_p2p'),
      }
    : {};
  const stack = fork(import.meta.filename, [], {
    env: { ...process.env, BENCH_ROLE: 'stack', BENCH_DATA_DIR: dataDir, ...databases },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  try {
    const { base, chainUrl } = await new Promise<{ base: string; chainUrl: string }>((ready, fail) => {
      stack.once('message', (message) => ready(message as { base: string; chainUrl: string }));
      stack.once('exit', (code) => fail(new Error(`the stack exited with ${code}`)));
    });

    // The merchant: onboarded, with its wallet's xpub and identity key registered; it gets a paymail.
    const onboarded = await expectOk(
      http('POST', `${base}/api/v1/onboard`, { name: 'Paymail Latency Cafe', paymail_alias: 'cafe' }),
      'onboard',
      201,
    );
    const headers = { authorization: `Bearer ${onboarded.api_key.key}` };
    const handle: string = onboarded.organization.handle;
    const merchant = merchantKeys();
    const patched = await expectOk(
      http(
        'PATCH',
        `${base}/api/v1/organizations/${handle}`,
        {
          wallet_xpub: merchant.xpub,
          identity_public_key: merchant.identity.toPublicKey().toString(),
        },
        headers,
      ),
      'register the wallet',
    );
    const paymail: string = patched.paymail;
    const [alias, domain] = paymail.split('@') as [string, string];
    const capabilities = (await expectOk(http('GET', `${base}/.well-known/bsvalias`), 'capability document')).capabilities;
    const capability = (id: string) => (capabilities[id] as string).replace('{alias}', alias).replace('{domain.tld}', domain);
    const destinationUrl = capability('2a40af698840');
    const receiveUrl = capability('5f1323cddf31');
    const ledgerUrl = `${base}/api/v1/orgs/${handle}/ledger`;

    // The customers: one confirmed faucet coin each.
    console.log(`Paymail latency: ${TOTAL} customers funded by the faucet...`);
    const customers: { key: PrivateKey; source: Transaction; vout: number }[] = [];
    for (let i = 0; i < TOTAL; i++) {
      const key = PrivateKey.fromRandom();
      const paid = await requestFaucet(chainUrl, key.toAddress('testnet'), 100_000);
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
    const pending = new Map<string, Payment>(); // submitted, entry not seen yet
    const journaled: Payment[] = [];
    let paying = true;

    // The reader: from the oldest submitted payment not yet seen, page through the ledger.
    const reader = (async () => {
      while (paying || pending.size > 0) {
        const oldest = [...pending.values()].reduce<Date | undefined>(
          (min, p) => (!min || p.submittedWall! < min ? p.submittedWall : min),
          undefined,
        );
        // From just before it (the ledger takes a calendar date, and a cursor for the time within it).
        let cursor = oldest ? encodeCursor({ at: new Date(oldest.getTime() - 1), id: '00000000-0000-0000-0000-000000000000' }) : '';
        while (cursor) {
          try {
            const page = await expectOk(
              http('GET', `${ledgerUrl}?from=${oldest!.toISOString().slice(0, 10)}&limit=100&cursor=${cursor}`, undefined, headers),
              'ledger',
            );
            const seenAt = performance.now();
            for (const entry of page.data) {
              const payment = pending.get(entry.txid);
              if (!payment) continue;
              pending.delete(entry.txid);
              payment.journaledAt = seenAt;
              journaled.push(payment);
            }
            cursor = page.next_cursor;
          } catch (error) {
            fail('ledger read', error);
            cursor = '';
          }
        }
        await sleep(POLL_MS);
      }
    })();

    /** One customer pays: destination, transaction built and signed, then (on the clock) receive-transaction. */
    const pay = async (index: number): Promise<void> => {
      const payment: Payment = { warmUp: index < WARM_UP };
      payments.push(payment);
      const customer = customers[index]!;
      let asked: { outputs: { script: string; satoshis: number }[]; reference: string };
      try {
        asked = await expectOk(http('POST', destinationUrl, { satoshis: SATOSHIS }), 'P2P payment destination');
      } catch (error) {
        return fail('payment destination', error);
      }
      const tx = new Transaction();
      tx.addInput({
        sourceTransaction: customer.source,
        sourceOutputIndex: customer.vout,
        unlockingScriptTemplate: new P2PKH().unlock(customer.key),
      });
      for (const output of asked.outputs) tx.addOutput({ lockingScript: LockingScript.fromHex(output.script), satoshis: output.satoshis });
      const paid = asked.outputs.reduce((sum, output) => sum + output.satoshis, 0);
      tx.addOutput({
        lockingScript: new P2PKH().lock(customer.key.toAddress('testnet')),
        satoshis: customer.source.outputs[customer.vout]!.satoshis! - paid - 200,
      });
      await tx.sign();
      const txid = tx.id('hex');
      const body = {
        hex: tx.toHex(),
        reference: asked.reference,
        metadata: {
          sender: 'customer@wallet.example',
          pubkey: customer.key.toPublicKey().toString(),
          signature: BSM.sign(Utils.toArray(txid, 'utf8'), customer.key),
          note: 'bench',
        },
      };
      Object.assign(payment, { txid, submittedWall: new Date(), submittedAt: performance.now() });
      pending.set(txid, payment);
      try {
        await expectOk(http('POST', receiveUrl, body), 'P2P receive transaction');
        payment.answeredAt = performance.now();
      } catch (error) {
        pending.delete(txid);
        fail('receive transaction', error);
      }
    };

    console.log(
      `  ${WARM_UP} warm-up payments, then ${PAYMENTS} at ${RATE}/s to ${paymail} (${args.postgres ? 'PostgreSQL' : 'PGlite'}, in-process events)`,
    );
    const started = performance.now();
    const running: Promise<void>[] = [];
    for (let launched = 0; launched < TOTAL; await sleep(2)) {
      const due = Math.min(TOTAL, Math.floor(((performance.now() - started) / 1000) * RATE) + 1);
      for (; launched < due; launched++) running.push(pay(launched));
    }
    await Promise.all(running);
    paying = false;
    const deadline = performance.now() + 60_000;
    while (pending.size > 0 && performance.now() < deadline) await sleep(50);
    for (const payment of pending.values()) fail('journal entry (not within 60 s)', new Error(`txid ${payment.txid}`));
    const lost = pending.size;
    pending.clear();
    await reader;

    const measured = payments.filter((p) => !p.warmUp);
    const submitted = measured
      .filter((p) => p.submittedAt !== undefined)
      .map((p) => p.submittedAt!)
      .sort((a, b) => a - b);
    const rate = (submitted.length - 1) / (((submitted.at(-1) ?? 0) - (submitted[0] ?? 0)) / 1000);
    const answers = measured
      .filter((p) => p.answeredAt !== undefined)
      .map((p) => p.answeredAt! - p.submittedAt!)
      .sort((a, b) => a - b);
    const toJournal = (warmUp: boolean) =>
      journaled
        .filter((p) => p.warmUp === warmUp)
        .map((p) => p.journaledAt! - p.submittedAt!)
        .sort((a, b) => a - b);
    const latencies = toJournal(false);
    const warmUps = toJournal(true);
    console.log(
      `  ${measured.length} payments (after ${WARM_UP} of warm-up), submitted at ${rate.toFixed(1)}/s; ${latencies.length} journal entries read back${lost ? `, ${lost} NOT within 60 s` : ''}`,
    );
    console.log(
      `  warm-up (${warmUps.length} entries, not counted): p50 ${ms(percentile(warmUps, 50))}   max ${ms(warmUps.at(-1) ?? NaN)}`,
    );
    console.log(
      `  receive-transaction answered:  p50 ${ms(percentile(answers, 50))}   p99 ${ms(percentile(answers, 99))}   max ${ms(answers.at(-1) ?? NaN)}`,
    );
    console.log(
      `  broadcast -> journal entry:    p50 ${ms(percentile(latencies, 50))}   p99 ${ms(percentile(latencies, 99))}   max ${ms(latencies.at(-1) ?? NaN)}`,
    );
    console.log(`  failures: ${failures.size === 0 ? 'none' : [...failures.values()].reduce((sum, f) => sum + f.count, 0)}`);
    for (const [stage, { count, first }] of failures) console.log(`    ${stage}: ${count} (first: ${first})`);
    if (failures.size > 0) process.exitCode = 1;
  } finally {
    stack.kill('SIGTERM');
    await new Promise((r) => (stack.exitCode === null ? stack.once('exit', r) : r(undefined)));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.env.BENCH_ROLE === 'stack') await runStack();
else await runBench();
