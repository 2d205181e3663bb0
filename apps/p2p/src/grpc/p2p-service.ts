import type { ChainClient } from '@ctk/chain';
import type { P2pServiceImplementation } from '@ctk/proto/ctk/p2p/v1/p2p';
import type { Config } from '../config.js';
import { getSetup } from '../domain/get-setup.js';
import { walletOrgOf } from '../domain/org-wallet.js';
import type { PrismaClient } from '../generated/prisma/client.js';
import { createP2pDestination } from '../paymail/create-p2p-destination.js';
import { getPaymentDestination } from '../paymail/get-payment-destination.js';
import { receiveP2pTransaction } from '../paymail/receive-p2p-transaction.js';
import { allocateDestination } from '../settlement/allocate-destination.js';
import { settlePayment } from '../settlement/settle-payment.js';
import { verifyReceipt } from '../receipts/verify-receipt.js';
import { broadcastTransaction } from '../wallet/broadcast-transaction.js';
import { chainPassthrough } from '../wallet/chain-passthrough.js';
import { findPayments } from '../wallet/find-payments.js';
import { listUtxos } from '../wallet/list-utxos.js';
import { transactionStatus } from '../wallet/transaction-status.js';

export type P2pDeps = {
  prisma: PrismaClient;
  chain: ChainClient;
  config: Config;
  /** Called after a commit that wrote payment events to the outbox, so the relay publishes them now. */
  eventsCommitted: () => void;
};

export function p2pService({ prisma, chain, config, eventsCommitted }: P2pDeps): P2pServiceImplementation {
  return {
    async getSetup(request) {
      return { capabilities: getSetup(walletOrgOf(request.org)) };
    },
    getPaymentDestination: (request) =>
      getPaymentDestination(
        {
          prisma,
          dtToleranceSeconds: config.P2P_DT_TOLERANCE_SECONDS,
          holdSeconds: config.P2P_REFERENCE_TTL_SECONDS,
          gapLimit: config.P2P_GAP_LIMIT,
        },
        request,
      ),
    createP2pDestination: (request) =>
      createP2pDestination({ prisma, referenceTtlSeconds: config.P2P_REFERENCE_TTL_SECONDS, gapLimit: config.P2P_GAP_LIMIT }, request),
    receiveP2pTransaction: (request) => receiveP2pTransaction({ prisma, chain, eventsCommitted }, request),
    listUtxos: (request) => listUtxos(chain, request.address),
    broadcastTransaction: (request) => broadcastTransaction(chain, request.transaction),
    chainPassthrough: (request) => chainPassthrough({ chain, config }, request),
    verifyReceipt: (request) => verifyReceipt(chain, request),
    allocateDestination: (request) => allocateDestination({ prisma, gapLimit: config.P2P_GAP_LIMIT, network: chain.network }, request),
    settlePayment: (request) => settlePayment({ prisma, chain }, request),
    findPayments: (request) => findPayments(chain, request.addresses),
    getTransactionStatus: (request) => transactionStatus(chain, request.txid),
  };
}
