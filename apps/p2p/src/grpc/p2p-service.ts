import type { ChainClient } from '@ctk/chain';
import { keptKey, type Sql } from '@ctk/shared';
import type { P2pServiceImplementation } from '@ctk/proto/ctk/p2p/v1/p2p';
import type { Config } from '../config.js';
import { getSetup } from '../domain/get-setup.js';
import { getWallets } from '../wallet-facts/get-wallets.js';
import { setWallet } from '../wallet-facts/set-wallet.js';
import { walletOrgOf } from '../domain/org-wallet.js';
import type { PrismaClient } from '../generated/prisma/client.js';
import { createP2pDestination } from '../paymail/create-p2p-destination.js';
import { getPaymentDestination } from '../paymail/get-payment-destination.js';
import { checkGateRequest } from '../paygate/check-gate-request.js';
import { createGateResource } from '../paygate/create-gate-resource.js';
import { signingKeyOf } from '../paygate/credential.js';
import { deleteGateResource } from '../paygate/delete-gate-resource.js';
import { x402Network } from '../paygate/gate-account.js';
import type { GateDeps } from '../paygate/gate-deps.js';
import { getGateKeys } from '../paygate/get-gate-keys.js';
import { listGatePayments } from '../paygate/list-gate-payments.js';
import { listGateResources } from '../paygate/list-gate-resources.js';
import { verifyGatePayment } from '../paygate/verify-gate-payment.js';
import { receiveP2pTransaction } from '../paymail/receive-p2p-transaction.js';
import { allocatedDestinations } from '../data/hold-allocated-destination.js';
import { allocateDestination } from '../settlement/allocate-destination.js';
import { releaseDestination } from '../settlement/release-destination.js';
import { settlePayment } from '../settlement/settle-payment.js';
import { verifyReceipt } from '../receipts/verify-receipt.js';
import { broadcastSigned } from '../wallet/broadcast-transaction.js';
import { chainPassthrough } from '../wallet/chain-passthrough.js';
import { findPayments } from '../wallet/find-payments.js';
import { listUtxos } from '../wallet/list-utxos.js';
import { transactionStatus } from '../wallet/transaction-status.js';

export type P2pDeps = {
  prisma: PrismaClient;
  sql: Sql;
  chain: ChainClient;
  config: Config;
  /** Called after a commit that wrote payment events to the outbox, so the relay publishes them now. */
  eventsCommitted: () => void;
};

export function p2pService({ prisma, sql, chain, config, eventsCommitted }: P2pDeps): P2pServiceImplementation {
  const seed = keptKey(prisma.p2pKey, 'gate-signing-key', config.P2P_GATE_SIGNING_KEY);
  const gate: GateDeps = {
    prisma,
    chain,
    config,
    eventsCommitted,
    network: x402Network(chain.network),
    signingKey: memo(async () => signingKeyOf(await seed())),
  };
  // Every receiving output of an xpub comes from this one window (decision 0022).
  const window = {
    gapLimit: config.P2P_GAP_LIMIT,
    staffReserved: config.P2P_STAFF_RESERVED_ADDRESSES,
    perClient: config.P2P_ANONYMOUS_HOLDS_PER_CLIENT,
  };
  const holdDestination = allocatedDestinations(sql);
  return {
    getWallets: async (request) => ({ wallets: await getWallets(prisma, request) }),
    setWallet: async (request) => ({ wallet: await setWallet(prisma, request) }),
    async getSetup(request) {
      return { capabilities: await getSetup(prisma, await walletOrgOf(sql, request.org)) };
    },
    getPaymentDestination: (request) =>
      getPaymentDestination(
        {
          prisma,
          dtToleranceSeconds: config.P2P_DT_TOLERANCE_SECONDS,
          holdSeconds: config.P2P_REFERENCE_TTL_SECONDS,
          window,
        },
        request,
      ),
    createP2pDestination: (request) =>
      createP2pDestination({ prisma, referenceTtlSeconds: config.P2P_REFERENCE_TTL_SECONDS, window }, request),
    receiveP2pTransaction: (request) => receiveP2pTransaction({ prisma, chain, eventsCommitted }, request),
    listUtxos: (request) => listUtxos(chain, request.address),
    broadcastTransaction: (request) => broadcastSigned(chain, request.transaction),
    chainPassthrough: (request) => chainPassthrough({ chain, config }, request),
    verifyReceipt: (request) => verifyReceipt(chain, request),
    allocateDestination: (request) => allocateDestination({ prisma, sql, holdDestination, window, network: chain.network }, request),
    releaseDestination: (request) => releaseDestination(prisma, request),
    settlePayment: (request) => settlePayment({ prisma, sql, chain }, request),
    findPayments: (request) => findPayments(chain, request.addresses),
    getTransactionStatus: (request) => transactionStatus(chain, request.txid),
    getChainTip: async () => {
      const { height, bestBlockHash } = await chain.chainInfo();
      return { height, bestBlockHash };
    },
    listGateResources: (request) => listGateResources(prisma, request),
    createGateResource: (request) => createGateResource(prisma, request),
    deleteGateResource: (request) => deleteGateResource(prisma, request),
    checkGateRequest: (request) => checkGateRequest(gate, request),
    verifyGatePayment: (request) => verifyGatePayment(gate, request),
    listGatePayments: (request) => listGatePayments(gate, request),
    getGateKeys: (request) => getGateKeys(gate, request.publicUrl),
  };
}

/** The first successful answer of `load`, kept; a failure is tried again on the next call. */
function memo<T>(load: () => Promise<T>): () => Promise<T> {
  let value: Promise<T> | undefined;
  return () =>
    (value ??= load().catch((error: unknown) => {
      value = undefined;
      throw error;
    }));
}
