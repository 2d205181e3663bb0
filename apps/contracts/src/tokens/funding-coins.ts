import { addressOfPublicKey } from '@ctk/chain';
import { AppError, type Org } from '@ctk/shared';
import type { ContractsContext } from '../domain/contracts-context.js';

/** A coin of the merchant's wallet that may pay a mint's fee, with the path of the key that signs it. */
export type FundingCoin = { txid: string; vout: number; satoshis: number; address: string; derivationPath: string };

/** The identity key m/0' of a ctk-wallet: its address is where the wallet's coins and change go (packages/wallet). */
const IDENTITY_PATH = "m/0'";

/**
 * The merchant's spendable coins, as p2p knows the wallet (decision 0028): at the address of its identity key
 * (where a ctk-wallet keeps its coins and sends its change) and at its single receiving address, if it
 * registered one. 1-satoshi outputs are left alone: by 1Sat's convention they carry ordinals and tokens,
 * which a fee must never burn. The first address is where the mint's change goes. None, or nothing
 * spendable, is failed_precondition saying how to fund the wallet.
 */
export async function fundingCoins(context: ContractsContext, org: Org): Promise<{ coins: FundingCoin[]; changeAddress: string }> {
  const addresses = await fundingAddresses(context, org);
  const listed = await Promise.all(addresses.map(({ address }) => context.p2p.listUtxos({ address }, { timeoutMs: 20_000 })));
  const coins = addresses.flatMap(({ address, derivationPath }, index) =>
    listed[index]!.utxos.filter((utxo) => utxo.satoshis > 1n).map((utxo) => ({
      txid: utxo.txid,
      vout: utxo.vout,
      satoshis: Number(utxo.satoshis),
      address,
      derivationPath,
    })),
  );
  const changeAddress = addresses[0]!.address;
  if (coins.length === 0)
    throw new AppError(
      'failed_precondition',
      `${org.handle}'s wallet has no spendable satoshis at ${addresses.map((a) => a.address).join(' or ')} to pay the mint's fee: ` +
        `send a little BSV to ${changeAddress} (on the local chain: pnpm wallet faucet), then draft the mint again.`,
      { reason: 'no_funds', addresses: addresses.map((a) => a.address) },
    );
  return { coins, changeAddress };
}

async function fundingAddresses(context: ContractsContext, org: Org): Promise<{ address: string; derivationPath: string }[]> {
  const { wallets } = await context.p2p.getWallets({ organizationIds: [org.id] }, { timeoutMs: 10_000 });
  const wallet = wallets[0];
  const identity = wallet?.identityPublicKey
    ? addressOfPublicKey(wallet.identityPublicKey, context.chain.network, 'identity_public_key')
    : undefined;
  const addresses = identity ? [{ address: identity, derivationPath: IDENTITY_PATH }] : [];
  const receiving = wallet?.receivingAddress;
  if (receiving && receiving !== identity) addresses.push({ address: receiving, derivationPath: '' });
  if (addresses.length === 0)
    throw new AppError(
      'failed_precondition',
      `${org.handle} has registered no address whose coins can pay a mint's fee: register the wallet's identity key ` +
        `(identity_public_key, from pnpm wallet address --json) or a receiving address (PATCH /api/v1/organizations/${org.handle}), ` +
        'fund it, then draft the mint again.',
      { reason: 'no_funding_address' },
    );
  return addresses;
}
