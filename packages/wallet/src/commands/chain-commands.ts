import { requestFaucet } from '@ctk/chain/local';
import { AppError } from '@ctk/shared';
import { parseSatoshis } from '../amounts.js';
import { report } from '../io.js';
import { ownedAddresses } from '../wallet-coins.js';
import type { CommandContext } from './context.js';

/**
 * 5 BSV: several typical orders at the embedded default's rate (POS_FIXED_RATES, 20,000 satoshis a US cent:
 * a $22.70 order is 45,400,000 satoshis), within the local chain's CHAIN_FAUCET_MAX_SATOSHIS (10 BSV).
 */
export const DEFAULT_FAUCET_SATOSHIS = 500_000_000;

/** Coins from the local chain's faucet, to the wallet's address; there is no faucet on main or test. */
export async function faucet({ io, options, chain, wallet }: CommandContext): Promise<void> {
  if (chain.network !== 'local')
    throw new AppError('failed_precondition', `The faucet is the local chain's; CHAIN_NETWORK is ${chain.network}.`);
  const opened = wallet();
  const satoshis = options.args[0] ? parseSatoshis(options.args[0]) : DEFAULT_FAUCET_SATOSHIS;
  const payment = await requestFaucet(chain.config.CHAIN_LOCAL_URL.replace(/\/$/, ''), opened.address, satoshis);
  report(io, options.json, { txid: payment.txid, vout: payment.vout, satoshis: payment.satoshis, address: opened.address }, [
    `Received ${payment.satoshis} satoshis from the faucet: ${payment.txid}`,
  ]);
}

/** The coins at the wallet's address and, for an HD wallet, at the children m/0/n of its xpub the gap-limit scan finds. */
export async function balance({ io, options, chain, wallet }: CommandContext): Promise<void> {
  const opened = wallet();
  const addresses = await ownedAddresses(chain.client, opened);
  const held = await Promise.all(
    addresses.map(async (owned) => {
      const coins = await chain.client.listUnspent(owned.address);
      return {
        address: owned.address,
        path: owned.path ?? null,
        confirmed: sum(coins.filter((coin) => coin.height !== undefined)),
        unconfirmed: sum(coins.filter((coin) => coin.height === undefined)),
        coins: coins.length,
      };
    }),
  );
  const confirmed = held.reduce((total, owned) => total + owned.confirmed, 0);
  const unconfirmed = held.reduce((total, owned) => total + owned.unconfirmed, 0);
  const coins = held.reduce((total, owned) => total + owned.coins, 0);
  const holding = held.filter((owned) => owned.coins > 0);
  const summary = `${confirmed + unconfirmed} satoshis (${confirmed} confirmed, ${unconfirmed} unconfirmed) in ${coins} coin${coins === 1 ? '' : 's'}`;
  const onlyAtAddress = holding.every((owned) => owned.address === opened.address);
  report(
    io,
    options.json,
    {
      address: opened.address,
      satoshis: confirmed + unconfirmed,
      confirmed,
      unconfirmed,
      coins,
      addresses: holding.map((owned) => ({
        address: owned.address,
        path: owned.path,
        satoshis: owned.confirmed + owned.unconfirmed,
        coins: owned.coins,
      })),
    },
    onlyAtAddress
      ? [`${summary} at ${opened.address}`]
      : [
          summary,
          ...holding.map(
            (owned) =>
              `  ${owned.confirmed + owned.unconfirmed} at ${owned.address} (${owned.address === opened.address ? `${owned.path}, the identity key's` : owned.path})`,
          ),
        ],
  );
}

function sum(coins: Array<{ satoshis: number }>): number {
  return coins.reduce((total, coin) => total + coin.satoshis, 0);
}
