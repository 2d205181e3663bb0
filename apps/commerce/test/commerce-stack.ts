import { randomUUID } from 'node:crypto';
import { HD, LockingScript, P2PKH, PrivateKey, Transaction } from '@bsv/sdk';
import { configSchema as booksConfigSchema, service as books } from '@ctk/books';
import { mineBlocks, requestFaucet, startLocalChain } from '@ctk/chain/local';
import { BooksServiceDefinition } from '@ctk/proto/ctk/books/v1/books';
import { P2pServiceDefinition } from '@ctk/proto/ctk/p2p/v1/p2p';
import { CommerceServiceDefinition } from '@ctk/proto/ctk/commerce/v1/commerce';
import type { OrgRef } from '@ctk/proto/ctk/common/v1/common';
import { PosServiceDefinition, type CreateItemRequest } from '@ctk/proto/ctk/pos/v1/pos';
import { configSchema as p2pConfigSchema, service as p2p } from '@ctk/p2p';
import { configSchema as posConfigSchema, service as pos } from '@ctk/pos';
import { inProcessTransport, loadConfig, startService, type EventTransport, type GrpcClient, type Sql } from '@ctk/shared';
import { createTestDatabase, TEST_DATA_DIR, createTestClient } from '@ctk/shared/testing';
import { configSchema, service as commerce } from '../src/app.js';
import { createCheckoutRepository } from '../src/data/checkout-repository.js';
import type { PrismaClient } from '../src/generated/prisma/client.js';

export const PUBLIC_URL = 'https://pay.example.com';

async function database(name: string) {
  const url = await createTestDatabase(name);
  return { CTK_DATA_DIR: TEST_DATA_DIR, ...(url ? { DATABASE_URL: url } : {}) };
}

/**
 * Commerce in front of the real pos, with p2p on a local chain and books, each on its own database and
 * a free port (tests pay by BIP270; pos's watcher, every 200 ms, sees payments mined). `advance` moves pos's and commerce's clock. The
 * catalog is read from pos every time unless `env` says otherwise.
 */
export async function startCommerceStack(env: Record<string, string> = {}) {
  const chain = await startLocalChain({ port: 0 });
  const inner = inProcessTransport();
  // What each durable consumer has handled (acknowledged), by message id: a test waits on commerce's.
  const handled = new Map<string, Set<string>>();
  // A durable consumer held back: its handler waits until the gate opens (an event on its way).
  const gates = new Map<string, Promise<void>>();
  const transport: EventTransport = {
    publish: (message) => inner.publish(message),
    close: () => inner.close(),
    announce: (subject, data) => inner.announce!(subject, data),
    listen: (subject, listener) => inner.listen!(subject, listener),
    consume: (durable, handler) =>
      inner.consume(durable, async (message) => {
        await gates.get(durable);
        await handler(message);
        if (!handled.has(durable)) handled.set(durable, new Set());
        handled.get(durable)!.add(message.id);
      }),
  };
  const base = { GRPC_PORT: '0', LOG_LEVEL: 'silent' };
  const chainEnv = { CHAIN_NETWORK: 'local', CHAIN_LOCAL_URL: chain.url, CHAIN_RETRIES: '1' };
  const p2pService = await startService(p2p, loadConfig(p2pConfigSchema, { ...base, ...chainEnv, ...(await database('p2p')) }), {
    transport,
  });
  const booksService = await startService(books, loadConfig(booksConfigSchema, { ...base, ...(await database('books')) }), {
    transport,
  });
  let offsetMs = 0;
  const posService = await startService(
    pos,
    loadConfig(posConfigSchema, {
      ...base,
      ...(await database('pos')),
      BOOKS_GRPC_URL: `127.0.0.1:${booksService.port}`,
      P2P_GRPC_URL: `127.0.0.1:${p2pService.port}`,
      POS_WATCH_INTERVAL_MS: '200',
      POS_FIXED_RATES: 'USD=100,EUR=100',
    }),
    { transport, now: () => new Date(Date.now() + offsetMs) },
  );
  const posUrl = `127.0.0.1:${posService.port}`;
  let commerceContext: { prisma: PrismaClient; sql: Sql } | undefined;
  const commerceService = await startService(
    // Its database kept, for a test to set a row up as an older version left it.
    {
      ...commerce,
      build: (context, options) => {
        commerceContext = context;
        return commerce.build(context, options);
      },
    },
    loadConfig(configSchema, {
      ...base,
      ...chainEnv,
      ...(await database('commerce')),
      POS_GRPC_URL: posUrl,
      P2P_GRPC_URL: `127.0.0.1:${p2pService.port}`,
      COMMERCE_CATALOG_CACHE_MS: '0',
      ...env,
    }),
    // Commerce relays provider payments' events to books (decision 0019); its clock moves with pos's.
    { transport, now: () => new Date(Date.now() + offsetMs) },
  );
  const booksClient = createTestClient(BooksServiceDefinition, `127.0.0.1:${booksService.port}`);
  const p2pClient = createTestClient(P2pServiceDefinition, `127.0.0.1:${p2pService.port}`);
  const client = createTestClient(CommerceServiceDefinition, `127.0.0.1:${commerceService.port}`);
  const posClient = createTestClient(PosServiceDefinition, posUrl);

  /** Creates an item in pos (available, USD, fixed price unless the fields say otherwise). */
  async function item(org: OrgRef, fields: Partial<CreateItemRequest>) {
    const { item: created } = await posClient.createItem({ org, currency: 'USD', available: true, ...fields });
    if (!created) throw new Error('pos created no item');
    return created;
  }

  /** A customer's signed transaction paying each output of a payment request, change back to the customer. */
  async function paying(outputs: { script: string; amount: bigint }[]) {
    const key = PrivateKey.fromRandom();
    const funded = await requestFaucet(chain.url, key.toAddress('testnet'), 1_000_000);
    const source = Transaction.fromHex(funded.raw_tx);
    const tx = new Transaction();
    tx.addInput({ sourceTransaction: source, sourceOutputIndex: funded.vout, unlockingScriptTemplate: new P2PKH().unlock(key) });
    for (const output of outputs) tx.addOutput({ lockingScript: LockingScript.fromHex(output.script), satoshis: Number(output.amount) });
    const spent = outputs.reduce((sum, output) => sum + Number(output.amount), 0);
    tx.addOutput({
      lockingScript: new P2PKH().lock(key.toAddress('testnet')),
      satoshis: source.outputs[funded.vout]!.satoshis! - spent - 500,
    });
    await tx.sign();
    return tx;
  }

  /** Pays an order in full by BIP270, as a wallet would. */
  async function payOrder(orderNumber: string) {
    const request = await posClient.getPaymentRequest({ orderNumber, publicUrl: PUBLIC_URL });
    const tx = await paying(request.outputs);
    await posClient.payOrder({ orderNumber, transaction: tx.toHex(), merchantData: request.merchantData }, { timeoutMs: 30_000 });
    return tx;
  }

  /**
   * A payment made now for an order (its payment request is read while the order is open) and learned of
   * later, as the watcher or staff learn of one after expiry: `confirm` broadcasts it without BIP270 (which
   * refuses an expired order) and has staff confirm the txid.
   */
  async function latePayment(orderNumber: string) {
    const request = await posClient.getPaymentRequest({ orderNumber, publicUrl: PUBLIC_URL });
    const tx = await paying(request.outputs);
    return {
      async confirm(org: OrgRef) {
        const broadcast = await fetch(`${chain.url}/v1/tx`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ rawTx: tx.toHex() }),
        });
        if (!broadcast.ok) throw new Error(`broadcast: ${broadcast.status} ${await broadcast.text()}`);
        await posClient.confirmOrder({ org, orderNumber, txid: tx.id('hex'), publicUrl: PUBLIC_URL }, { timeoutMs: 30_000 });
      },
    };
  }

  return {
    client,
    /** Where commerce's metrics answer (every app of the stack's: they share this process's registry), with METRICS_PORT. */
    metricsPort: commerceService.metricsPort,
    pos: posClient,
    /** The local chain's base URL (its faucets, its cosigner, its token indexer). */
    chainUrl: chain.url,
    /** A new organisation set up with p2p and books (registerOrg). */
    walletOrg: (setup: OrgSetup = {}) => registerOrg({ p2p: p2pClient, books: booksClient }, setup),
    /** Commerce's database, as the service uses it. */
    commerceDatabase: () => commerceContext!.prisma,
    /** Its checkouts as commerce reads them. */
    commerceCheckouts: () => createCheckoutRepository(commerceContext!.prisma, commerceContext!.sql),
    /** The events between the services (pos's payment events reach books and commerce on it). */
    transport,
    /** Holds this durable consumer's deliveries back until the returned function is called. */
    holdBack(durable: string): () => void {
      let open!: () => void;
      gates.set(durable, new Promise<void>((resolve) => (open = resolve)));
      return () => {
        gates.delete(durable);
        open();
      };
    },
    /** Whether this durable consumer has handled (acknowledged) the message with this id. */
    handledBy: (durable: string, messageId: string) => handled.get(durable)?.has(messageId) ?? false,
    books: booksClient,
    item,
    payOrder,
    latePayment,
    /** Mines a block on the local chain: the transactions waiting are in it. */
    mine: () => mineBlocks(chain.url, 1),
    /** Moves pos's and commerce's clock this many seconds ahead of the real one. */
    advance(seconds: number) {
      offsetMs += seconds * 1000;
    },
    async close() {
      client.close();
      posClient.close();
      booksClient.close();
      p2pClient.close();
      await commerceService.close();
      await posService.close();
      await booksService.close();
      await p2pService.close();
      await transport.close();
      await chain.close();
    },
  };
}

export type CommerceStack = Awaited<ReturnType<typeof startCommerceStack>>;

/** What a test organisation is set up with: its wallet (p2p's) and tax settings (books'). */
export type OrgSetup = { jurisdiction?: string; pricesIncludeTax?: boolean; walletXpub?: string; receivingAddress?: string };

/**
 * An organisation with a wallet (an xpub: each order gets its own address, unless an empty `walletXpub`
 * says otherwise) and, when given, a jurisdiction: registered with p2p and books, their owners, as the
 * gateway does (decision 0028).
 */
async function registerOrg(
  clients: { p2p: GrpcClient<typeof P2pServiceDefinition>; books: GrpcClient<typeof BooksServiceDefinition> },
  setup: OrgSetup,
): Promise<OrgRef> {
  const id = randomUUID();
  const org = { id, handle: `shop-${id.slice(0, 8)}` };
  const walletXpub = setup.walletXpub ?? HD.fromRandom().derive("m/44'/236'/0'").toPublic().toString();
  await clients.p2p.setWallet({ org, walletXpub: walletXpub || undefined, receivingAddress: setup.receivingAddress });
  if (setup.jurisdiction || setup.pricesIncludeTax !== undefined)
    await clients.books.setTaxSettings({ org, jurisdiction: setup.jurisdiction || undefined, pricesIncludeTax: setup.pricesIncludeTax });
  return org;
}

export { failure } from '@ctk/shared/testing';
