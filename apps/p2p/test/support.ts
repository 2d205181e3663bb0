import { randomUUID } from 'node:crypto';
import { HD, LockingScript, P2PKH, PrivateKey, Transaction } from '@bsv/sdk';
import { createChainClient, type ChainClient } from '@ctk/chain';
import { requestFaucet, startLocalChain, type RunningLocalChain } from '@ctk/chain/local';
import type { OrgRef } from '@ctk/proto/ctk/common/v1/common';
import { P2pServiceDefinition } from '@ctk/proto/ctk/p2p/v1/p2p';
import { inProcessTransport, loadConfig, type EventTransport, type GrpcClient } from '@ctk/shared';
import { createTestDatabase, startBuiltService, TEST_DATA_DIR, createTestClient } from '@ctk/shared/testing';
import { configSchema, service } from '../src/app.js';
import type { PrismaClient } from '../src/generated/prisma/client.js';

export type TestStack = {
  port: number;
  /** Where its metrics answer, when started with METRICS_PORT. */
  metricsPort?: number;
  chain: RunningLocalChain;
  chainClient: ChainClient;
  transport: EventTransport;
  client: GrpcClient<typeof P2pServiceDefinition>;
  /** p2p's own Prisma client, for a test that must put a row in a state no call reaches (a reference past its expiry). */
  prisma: PrismaClient;
  /** A new organisation with this wallet registered (registeredOrg). */
  orgRef(wallet?: Parameters<typeof registeredOrg>[1]): Promise<OrgRef>;
  close(): Promise<void>;
};

/** A local chain on a free port, and p2p on its own database (PostgreSQL with CTK_TEST_POSTGRES_URL) relaying to an in-process transport. */
export async function startStack(env: Record<string, string> = {}): Promise<TestStack> {
  const chain = await startLocalChain({ port: 0 });
  const databaseUrl = await createTestDatabase('p2p');
  const transport = inProcessTransport();
  const config = loadConfig(configSchema, {
    GRPC_PORT: '0',
    LOG_LEVEL: 'silent',
    CTK_DATA_DIR: TEST_DATA_DIR,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    CHAIN_NETWORK: 'local',
    CHAIN_LOCAL_URL: chain.url,
    CHAIN_RETRIES: '1',
    ...env,
  });
  const p2p = await startBuiltService(
    service,
    async (context, options) => ({ parts: await service.build(context, options), prisma: context.prisma }),
    config,
    { transport },
  );
  const client = createTestClient(P2pServiceDefinition, `127.0.0.1:${p2p.port}`);
  return {
    port: p2p.port,
    metricsPort: p2p.metricsPort,
    chain,
    chainClient: createChainClient({ network: 'local', localUrl: chain.url, retries: 1, retryBaseMs: 20 }),
    transport,
    client,
    prisma: p2p.prisma,
    orgRef: (wallet) => registeredOrg(client, wallet),
    async close() {
      client.close();
      await p2p.close();
      await transport.close();
      await chain.close();
    },
  };
}

/** A merchant's wallet: the account key it keeps, the xpub it registers, and its identity key. */
export function merchantWallet() {
  const account = HD.fromRandom().derive("m/44'/236'/0'");
  const identity = PrivateKey.fromRandom();
  return { account, xpub: account.toPublic().toString(), identity };
}

/** A new organisation, with the public side of its wallet registered with p2p (SetWallet) as the gateway does. */
export async function registeredOrg(
  client: GrpcClient<typeof P2pServiceDefinition>,
  wallet: { xpub?: string; receivingAddress?: string; identity?: PrivateKey } = {},
): Promise<OrgRef> {
  const org = { id: randomUUID(), handle: `cafe-${randomUUID().slice(0, 8)}` };
  await client.setWallet({
    org,
    receivingAddress: wallet.receivingAddress,
    walletXpub: wallet.xpub,
    identityPublicKey: wallet.identity?.toPublicKey().toString(),
  });
  return org;
}

/** A customer with coins from the faucet, as one output to spend. */
export async function fundedCustomer(chain: RunningLocalChain, satoshis = 100_000) {
  const key = PrivateKey.fromRandom();
  const payment = await requestFaucet(chain.url, key.toAddress('testnet'), satoshis);
  return { key, source: Transaction.fromHex(payment.raw_tx), vout: payment.vout };
}

type Output = { script: string; satoshis: bigint | number };

/**
 * What a paying wallet does with a P2P destination: one transaction spending its coin to every output
 * given (the OP_RETURN receipt included), change back to itself, signed (by `signer` instead when given).
 */
export async function payOutputs(
  customer: Awaited<ReturnType<typeof fundedCustomer>>,
  outputs: readonly Output[],
  options: { signer?: PrivateKey; fee?: number } = {},
) {
  const tx = new Transaction();
  tx.addInput({
    sourceTransaction: customer.source,
    sourceOutputIndex: customer.vout,
    unlockingScriptTemplate: new P2PKH().unlock(options.signer ?? customer.key),
  });
  let paid = 0;
  for (const output of outputs) {
    tx.addOutput({ lockingScript: LockingScript.fromHex(output.script), satoshis: Number(output.satoshis) });
    paid += Number(output.satoshis);
  }
  const change = customer.source.outputs[customer.vout]!.satoshis! - paid - (options.fee ?? 200);
  tx.addOutput({ lockingScript: new P2PKH().lock(customer.key.toAddress('testnet')), satoshis: change });
  await tx.sign();
  return tx;
}

/** The event of `sourceId` among those `received` so far, waiting up to 2 s for the relay. */
export async function eventFor<T extends { sourceId: string }>(received: T[], sourceId: string): Promise<T | undefined> {
  for (let i = 0; i < 100; i++) {
    const found = received.find((event) => event.sourceId === sourceId);
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return undefined;
}

export { failure } from '@ctk/shared/testing';
