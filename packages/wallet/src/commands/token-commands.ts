import { formatTokenUnits, isTokenId, type StablecoinInfo } from '@ctk/chain';
import { requestStablecoinFaucet } from '@ctk/chain/local';
import { AppError } from '@ctk/shared';
import { parseTokenUnits } from '../amounts.js';
import type { ChainSettings } from '../chain-settings.js';
import { report } from '../io.js';
import { tokenAddresses } from '../tokens/wallet-tokens.js';
import type { CommandContext } from './context.js';

/** 100 USDX (5 decimals): a few typical orders. */
export const DEFAULT_STABLECOIN_FAUCET_UNITS = 10_000_000n;

/** The token ids given with `--token` (each `<txid>_<vout>`, or `stablecoin`), checked. */
export function tokenIdsOf(values: string[], stablecoin: StablecoinInfo | undefined): string[] {
  return values.map((value) => {
    if (value === 'stablecoin') {
      if (!stablecoin)
        throw new AppError('failed_precondition', 'No stablecoin is configured for this network (see packages/chain/README.md).');
      return stablecoin.tokenId;
    }
    if (!isTokenId(value)) throw new AppError('bad_request', `--token must be a token id (<txid>_<vout>) or "stablecoin", not "${value}".`);
    return value;
  });
}

/** The stablecoin, or undefined on a network that has none configured when other tokens were asked for. */
async function stablecoinOrNone(chain: ChainSettings, needed: boolean): Promise<StablecoinInfo | undefined> {
  try {
    return await chain.client.stablecoin();
  } catch (error) {
    if (!needed && AppError.is(error) && error.code === 'failed_precondition') return undefined;
    throw error;
  }
}

/**
 * What the wallet's addresses hold of the stablecoin and of each `--token`, from the token indexer: per token
 * the units (confirmed and pending), shown with the token's decimals, and which addresses hold them.
 */
export async function tokens({ io, options, chain, wallet }: CommandContext): Promise<void> {
  const opened = wallet();
  const stablecoin = await stablecoinOrNone(chain, options.token.length === 0);
  const ids = [...new Set([...(stablecoin ? [stablecoin.tokenId] : []), ...tokenIdsOf(options.token, stablecoin)])];
  const addresses = await tokenAddresses(chain.client, opened, ids);
  const held = await Promise.all(
    ids.map(async (tokenId) => {
      const balances = await Promise.all(addresses.map((owned) => chain.client.tokenBalance(owned.address, tokenId)));
      const known = balances.find((balance) => balance.decimals !== undefined);
      const isStablecoin = tokenId === stablecoin?.tokenId;
      const decimals = isStablecoin ? stablecoin.decimals : (known?.decimals ?? 0);
      const symbol = isStablecoin ? stablecoin.symbol : (known?.symbol ?? tokenId.slice(0, 8));
      const confirmed = balances.reduce((sum, balance) => sum + balance.confirmed, 0n);
      const pending = balances.reduce((sum, balance) => sum + balance.pending, 0n);
      const holding = addresses.flatMap((owned, i) => {
        const balance = balances[i]!;
        return balance.confirmed + balance.pending > 0n
          ? [
              {
                address: owned.address,
                path: owned.path ?? null,
                confirmed: balance.confirmed.toString(),
                pending: balance.pending.toString(),
              },
            ]
          : [];
      });
      return {
        token_id: tokenId,
        symbol,
        decimals,
        stablecoin: isStablecoin,
        units: (confirmed + pending).toString(),
        confirmed,
        pending,
        holding,
      };
    }),
  );
  report(
    io,
    options.json,
    {
      address: opened.address,
      tokens: held.map(({ confirmed, pending, holding, ...token }) => ({
        ...token,
        amount: formatTokenUnits(confirmed + pending, token.decimals),
        confirmed: confirmed.toString(),
        pending: pending.toString(),
        addresses: holding,
      })),
    },
    held.flatMap((token) => [
      `${formatTokenUnits(token.confirmed + token.pending, token.decimals)} ${token.symbol} (${token.units} units: ${token.confirmed} confirmed, ${token.pending} pending)${token.stablecoin ? ', the stablecoin' : ''}, token ${token.token_id}`,
      ...(token.holding.every((owned) => owned.address === opened.address)
        ? []
        : token.holding.map(
            (owned) =>
              `  ${BigInt(owned.confirmed) + BigInt(owned.pending)} units at ${owned.address} (${owned.path ?? 'the identity key'})`,
          )),
    ]),
  );
}

/** Units of the local chain's test stablecoin (USDX) to the wallet's address, cosign-locked; there is none on main or test. */
export async function stablecoinFaucet({ io, options, chain, wallet }: CommandContext): Promise<void> {
  if (chain.network !== 'local')
    throw new AppError('failed_precondition', `The stablecoin faucet is the local chain's; CHAIN_NETWORK is ${chain.network}.`);
  const opened = wallet();
  const units = options.args[0] ? parseTokenUnits(options.args[0]) : DEFAULT_STABLECOIN_FAUCET_UNITS;
  const stablecoin = await chain.client.stablecoin();
  const paid = await requestStablecoinFaucet(chain.config.CHAIN_LOCAL_URL.replace(/\/$/, ''), opened.address, units);
  const amount = formatTokenUnits(units, stablecoin.decimals);
  report(
    io,
    options.json,
    {
      txid: paid.txid,
      vout: paid.vout,
      token_id: paid.token_id,
      symbol: stablecoin.symbol,
      units: paid.amount,
      amount,
      address: opened.address,
    },
    [`Received ${amount} ${stablecoin.symbol} (${paid.amount} units) from the stablecoin faucet: ${paid.txid}`],
  );
}
