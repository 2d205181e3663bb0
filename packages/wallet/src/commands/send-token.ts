import type { Transaction } from '@bsv/sdk';
import { formatTokenUnits, type StablecoinInfo } from '@ctk/chain';
import { AppError } from '@ctk/shared';
import { parseTokenUnits } from '../amounts.js';
import type { ChainSettings } from '../chain-settings.js';
import { report } from '../io.js';
import { checkAddress } from '../pay/bip21.js';
import { feeRate } from '../pay/fee-rate.js';
import { bsv21Transfer } from '../tokens/bsv21-transfer.js';
import { stablecoinTransfer } from '../tokens/stablecoin-transfer.js';
import { selectTokenUtxos, walletTokenUtxos, type OwnedTokenUtxo } from '../tokens/wallet-tokens.js';
import { tokenIdsOf } from './token-commands.js';
import type { CommandContext } from './context.js';

/**
 * Sends units of a token from the wallet. The stablecoin goes cosign-locked to its cosigner (MNEE's template),
 * the cosigner signs, then it is broadcast; any other BSV-21 token goes as js-1sat-ord builds a transfer.
 * `--no-cosign` prints the transaction as the wallet signed it (what the chain refuses without the cosigner),
 * `--print` the finished transaction, neither broadcast.
 */
export async function sendToken({ io, options, chain, wallet }: CommandContext): Promise<void> {
  if (options.token.length !== 1 || !options.to || options.amount === undefined)
    throw new AppError(
      'bad_request',
      'Give the token, the payee and the units: ctk-wallet send-token --token <id|stablecoin> --to <address> --amount <units>.',
    );
  const stablecoin = await stablecoinOf(chain, options.token[0] === 'stablecoin');
  const [tokenId] = tokenIdsOf(options.token, stablecoin) as [string];
  const to = options.to;
  checkAddress(to, chain.network);
  const amount = parseTokenUnits(options.amount);
  const opened = wallet();
  const isStablecoin = tokenId === stablecoin?.tokenId;

  const utxos = (await walletTokenUtxos(chain.client, opened, tokenId)).filter((utxo) =>
    isStablecoin ? utxo.cosignerPublicKey === stablecoin.cosignerPublicKey : utxo.cosignerPublicKey === undefined,
  );
  const selection = selectTokenUtxos(utxos, amount);
  const decimals = isStablecoin ? stablecoin.decimals : await decimalsOf(chain, utxos, tokenId);
  const symbol = isStablecoin ? stablecoin.symbol : tokenId.slice(0, 8);
  if (!selection) {
    const held = utxos.reduce((sum, utxo) => sum + utxo.amount, 0n);
    throw new AppError(
      'failed_precondition',
      `Insufficient ${symbol}: the wallet holds ${held} units${isStablecoin ? '' : ' it can spend alone'}, the transfer needs ${amount}.`,
    );
  }
  const satsPerKb = await feeRate(chain.arcUrl);
  const signed = isStablecoin
    ? (await stablecoinTransfer({ chain: chain.client, wallet: opened, stablecoin, ...selection, to, amount, satsPerKb })).tx
    : await bsv21Transfer({ chain: chain.client, wallet: opened, tokenId, decimals, chosen: selection.chosen, to, amount, satsPerKb });

  if (options.noCosign) return printed(io, options.json, signed, { cosigned: false });
  const finished: Transaction = isStablecoin ? await chain.client.cosign(signed) : signed;
  if (options.print) return printed(io, options.json, finished, { cosigned: isStablecoin });
  await chain.client.broadcast(isStablecoin ? finished : finished.toHex());
  const txid = finished.id('hex');
  const shown = `${formatTokenUnits(amount, decimals)} ${symbol}`;
  report(
    io,
    options.json,
    { txid, token_id: tokenId, symbol, units: amount.toString(), amount: formatTokenUnits(amount, decimals), to, cosigned: isStablecoin },
    [`Sent ${shown} (${amount} units) to ${to}${isStablecoin ? ', cosigned' : ''}.`, `txid: ${txid}`],
  );
}

async function stablecoinOf(chain: ChainSettings, asked: boolean): Promise<StablecoinInfo | undefined> {
  try {
    return await chain.client.stablecoin();
  } catch (error) {
    if (!asked && AppError.is(error) && error.code === 'failed_precondition') return undefined;
    throw error;
  }
}

/** A token's decimals, as the indexer knows them (js-1sat-ord needs them to convert the amount). */
async function decimalsOf(chain: ChainSettings, utxos: OwnedTokenUtxo[], tokenId: string): Promise<number> {
  const holder = utxos[0]?.holder.address;
  const balance = holder ? await chain.client.tokenBalance(holder, tokenId) : undefined;
  return balance?.decimals ?? 0;
}

/** The transaction in hex on stdout, not broadcast. */
function printed(io: CommandContext['io'], json: boolean, tx: Transaction, extra: { cosigned: boolean }): void {
  report(io, json, { txid: tx.id('hex'), rawtx: tx.toHex(), broadcast: false, ...extra }, [tx.toHex()]);
}
