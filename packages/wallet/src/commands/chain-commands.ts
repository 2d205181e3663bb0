import { requestFaucet } from '@ctk/chain/local';
import { AppError } from '@ctk/shared';
import { parseSatoshis } from '../amounts.js';
import { report } from '../io.js';
import type { CommandContext } from './context.js';

const DEFAULT_FAUCET_SATOSHIS = 1_000_000;

/** Coins from the local chain's faucet; there is no faucet on main or test. */
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

export async function balance({ io, options, chain, wallet }: CommandContext): Promise<void> {
  const opened = wallet();
  const coins = await chain.client.listUnspent(opened.address);
  const confirmed = coins.filter((coin) => coin.height !== undefined).reduce((sum, coin) => sum + coin.satoshis, 0);
  const unconfirmed = coins.filter((coin) => coin.height === undefined).reduce((sum, coin) => sum + coin.satoshis, 0);
  report(io, options.json, { address: opened.address, satoshis: confirmed + unconfirmed, confirmed, unconfirmed, coins: coins.length }, [
    `${confirmed + unconfirmed} satoshis (${confirmed} confirmed, ${unconfirmed} unconfirmed) in ${coins.length} coin${coins.length === 1 ? '' : 's'} at ${opened.address}`,
  ]);
}
