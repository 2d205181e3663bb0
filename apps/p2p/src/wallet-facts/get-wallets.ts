import type { GetWalletsRequest, Wallet } from '@ctk/proto/ctk/p2p/v1/p2p';
import { AppError } from '@ctk/shared';
import { findWallets } from '../data/wallet-repository.js';
import type { PrismaClient } from '../generated/prisma/client.js';
import { walletMessage } from './wallet-message.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A page of organisations (the gateway lists at most 100) in one read. */
const MAX_IDS = 100;

/** The wallets of the organisations named, one per id in order; an organisation that registered nothing has empty fields. */
export async function getWallets(prisma: PrismaClient, request: GetWalletsRequest): Promise<Wallet[]> {
  const ids = request.organizationIds;
  if (ids.length > MAX_IDS)
    throw new AppError('validation_failed', `At most ${MAX_IDS} organisations at once`, { field: 'organization_ids' });
  const bad = ids.find((id) => !UUID.test(id));
  if (bad !== undefined) throw new AppError('bad_request', 'Organisations are named by their UUID', { field: 'organization_ids' });
  const wallets = await findWallets(prisma, ids);
  return ids.map((id, index) => walletMessage(id, wallets[index]!));
}
