import { randomUUID } from 'node:crypto';
import { HD, LockingScript, P2PKH, PrivateKey, Transaction } from '@bsv/sdk';
import { configSchema as booksConfigSchema, service as books } from '@ctk/books';
import { requestFaucet, startLocalChain, type RunningLocalChain } from '@ctk/chain/local';
import type { OrgRef } from '@ctk/proto/ctk/common/v1/common';
import { BooksServiceDefinition } from '@ctk/proto/ctk/books/v1/books';
import { OrderChanged } from '@ctk/proto/ctk/events/v1/order_event';
import { PaymentEvent } from '@ctk/proto/ctk/events/v1/payment_event';
import { P2pServiceDefinition } from '@ctk/proto/ctk/p2p/v1/p2p';
import { PosServiceDefinition, type CreateOrderRequest } from '@ctk/proto/ctk/pos/v1/pos';
import { configSchema as p2pConfigSchema, service as p2p } from '@ctk/p2p';
import { inProcessTransport, loadConfig, ORDER_CHANGED_SUBJECT, startService, type GrpcClient } from '@ctk/shared';
import { createTestDatabase, startBuiltService, TEST_DATA_DIR, createTestClient } from '@ctk/shared/testing';
import { buildPos, configSchema, service as pos } from '../src/app.js';

export const PUBLIC_URL = 'https://pay.example.com';

/**
 * A local chain, p2p on it, books (the tax rates; it posts pos's payment events) and pos calling both,
 * each on its own database (PostgreSQL when CTK_TEST_POSTGRES_URL is set), pos's payment events collected
 * from an in-process transport. `now` moves pos's clock (expiry) without waiting.
 */
export async function startOrderStack(env: Record<string, string> = {}) {
  const chain = await startLocalChain({ port: 0 });
  const transport = inProcessTransport();
  const database = async (name: string) => {
    const url = await createTestDatabase(name);
    return { CTK_DATA_DIR: TEST_DATA_DIR, ...(url ? { DATABASE_URL: url } : {}) };
  };
  const chainEnv = { CHAIN_NETWORK: 'local', CHAIN_LOCAL_URL: chain.url, CHAIN_RETRIES: '1' };
  const p2pService = await startService(
    p2p,
    loadConfig(p2pConfigSchema, { GRPC_PORT: '0', LOG_LEVEL: 'silent', ...(await database('p2p')), ...chainEnv }),
    { transport },
  );
  const booksService = await startService(
    books,
    loadConfig(booksConfigSchema, { GRPC_PORT: '0', LOG_LEVEL: 'silent', ...(await database('books')) }),
    { transport },
  );
  let offsetMs = 0;
  const posService = await startBuiltService(
    pos,
    buildPos,
    loadConfig(configSchema, {
      GRPC_PORT: '0',
      LOG_LEVEL: process.env.POS_TEST_LOG_LEVEL ?? 'silent',
      ...(await database('pos')),
      BOOKS_GRPC_URL: `127.0.0.1:${booksService.port}`,
      P2P_GRPC_URL: `127.0.0.1:${p2pService.port}`,
      POS_WATCH_INTERVAL_MS: '0',
      POS_FIXED_RATES: 'USD=100,EUR=100',
      ...env,
    }),
    { transport, now: () => new Date(Date.now() + offsetMs) },
  );
  const events: PaymentEvent[] = [];
  const orderChanges: OrderChanged[] = [];
  const subscription = await transport.consume('pos-test', async (message) => {
    if (message.subject === ORDER_CHANGED_SUBJECT) orderChanges.push(OrderChanged.decode(message.data));
    else events.push(PaymentEvent.decode(message.data));
  });
  const client = createTestClient(PosServiceDefinition, `127.0.0.1:${posService.port}`);
  const booksClient = createTestClient(BooksServiceDefinition, `127.0.0.1:${booksService.port}`);
  const p2pClient = createTestClient(P2pServiceDefinition, `127.0.0.1:${p2pService.port}`);
  return {
    chain,
    client,
    books: booksClient,
    p2p: p2pClient,
    events,
    /** Each change of an order's state, as published (ctk.orders.changed). */
    orderChanges,
    /** A new organisation set up with p2p and books (registerOrg). */
    walletOrg: (setup?: OrgSetup) => registerOrg({ p2p: p2pClient, books: booksClient }, setup),
    orders: posService.orders,
    /** Where pos's metrics answer (every app of the stack's: they share this process's registry), with METRICS_PORT. */
    metricsPort: posService.metricsPort,
    /** Moves pos's clock this many seconds ahead of the real one. */
    advance(seconds: number) {
      offsetMs += seconds * 1000;
    },
    async close() {
      client.close();
      booksClient.close();
      p2pClient.close();
      await subscription.stop();
      await posService.close();
      await booksService.close();
      await p2pService.close();
      await transport.close();
      await chain.close();
    },
  };
}

export type OrderStack = Awaited<ReturnType<typeof startOrderStack>>;

/** What a test organisation is set up with: its wallet (p2p's) and tax settings (books'). */
export type OrgSetup = { jurisdiction?: string; pricesIncludeTax?: boolean; walletXpub?: string; receivingAddress?: string };

/**
 * An organisation with a wallet (an xpub: each order gets its own address unless `receivingAddress` or an
 * empty `walletXpub` says otherwise) and, when given, a jurisdiction: registered with p2p and books, their
 * owners, as the gateway does.
 */
export async function registerOrg(
  clients: { p2p: GrpcClient<typeof P2pServiceDefinition>; books: GrpcClient<typeof BooksServiceDefinition> },
  setup: OrgSetup = {},
): Promise<OrgRef> {
  const id = randomUUID();
  const org = { id, handle: `cafe-${id.slice(0, 8)}` };
  const walletXpub = setup.walletXpub ?? HD.fromRandom().derive("m/44'/236'/0'").toPublic().toString();
  await clients.p2p.setWallet({ org, walletXpub: walletXpub || undefined, receivingAddress: setup.receivingAddress });
  if (setup.jurisdiction || setup.pricesIncludeTax !== undefined)
    await clients.books.setTaxSettings({ org, jurisdiction: setup.jurisdiction || undefined, pricesIncludeTax: setup.pricesIncludeTax });
  return org;
}

export function orderRequest(org: OrgRef, fields: Partial<CreateOrderRequest> = {}): Partial<CreateOrderRequest> {
  return { org, publicUrl: PUBLIC_URL, lines: [{ name: 'Flat white', quantity: 1n, unitPriceMinor: 450n } as never], ...fields };
}

/** A customer with coins from the local chain's faucet. */
export async function fundedCustomer(chain: RunningLocalChain, satoshis = 1_000_000) {
  const key = PrivateKey.fromRandom();
  const payment = await requestFaucet(chain.url, key.toAddress('testnet'), satoshis);
  return { key, source: Transaction.fromHex(payment.raw_tx), vout: payment.vout };
}

/** A signed transaction paying each output (scripts in hex), change back to the customer. */
export async function paying(
  customer: Awaited<ReturnType<typeof fundedCustomer>>,
  outputs: { script: string; satoshis: bigint | number }[],
) {
  const tx = new Transaction();
  tx.addInput({
    sourceTransaction: customer.source,
    sourceOutputIndex: customer.vout,
    unlockingScriptTemplate: new P2PKH().unlock(customer.key),
  });
  let paid = 0;
  for (const output of outputs) {
    tx.addOutput({ lockingScript: LockingScript.fromHex(output.script), satoshis: Number(output.satoshis) });
    paid += Number(output.satoshis);
  }
  tx.addOutput({
    lockingScript: new P2PKH().lock(customer.key.toAddress('testnet')),
    satoshis: customer.source.outputs[customer.vout]!.satoshis! - paid - 500,
  });
  await tx.sign();
  return tx;
}

export { failure } from '@ctk/shared/testing';
