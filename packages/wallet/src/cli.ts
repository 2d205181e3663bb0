import { AppError } from '@ctk/shared';
import { balance, faucet } from './commands/chain-commands.js';
import { commandContext, type CommandContext } from './commands/context.js';
import { fetchResource } from './commands/fetch.js';
import { history } from './commands/history.js';
import { address, create, exportKey, signMessage, xpub } from './commands/key-commands.js';
import { pay } from './commands/pay.js';
import { sendToken } from './commands/send-token.js';
import { signTransaction } from './commands/sign-transaction.js';
import { signFeed } from './commands/sign-feed.js';
import { stablecoinFaucet, tokens } from './commands/token-commands.js';
import { processIo, type WalletIo } from './io.js';
import { parseOptions } from './options.js';

const COMMANDS: Record<string, (context: CommandContext) => void | Promise<void>> = {
  create,
  address,
  xpub,
  export: exportKey,
  faucet,
  balance,
  pay,
  'sign-message': signMessage,
  'sign-transaction': signTransaction,
  'sign-feed': signFeed,
  history,
  fetch: fetchResource,
  tokens,
  'stablecoin-faucet': stablecoinFaucet,
  'send-token': sendToken,
};

export const USAGE = `ctk-wallet <command> [--file path] [--json]

  create [--force]          a new HD wallet (a seed) in the wallet file (default ~/.ctk-wallet.json, mode 0600)
  address                   the wallet's address (its identity key's)
  xpub                      the extended public key: register it as wallet_xpub
  export                    the identity key (WIF): the only command that shows a key
  faucet [satoshis]         coins from the local chain's faucet (default 500000000)
  balance                   confirmed and unconfirmed satoshis, with the xpub's children m/0/n
  pay <target> [--amount satoshis] [--reference R --lines JSON|@file [--merchant M]]
                            target: bitcoin:<address>?amount=<BSV>, pay:?r=<payment request URL>, or alias@domain
  sign-message <text>       a Bitcoin Signed Message signature (base64)
  sign-transaction <hex> [--partial]
                            signs a transaction built for this wallet (a token mint the service drafted): each
                            unsigned input whose key the wallet has (P2PKH, or its key's share of a bare
                            multisig); prints it signed (Extended Format hex), refusing one that spends an
                            address not of this wallet unless --partial (a joint transaction: partners sign
                            the other inputs); broadcasts nothing
  sign-feed <feed url>      signs the shop's published feed as its merchant (the identity key) and submits it
  history [--limit n]       the wallet's transactions, newest first
  fetch <url> [--max-sats N] [--method M] [--data text|@file] [--header "name: value"]
                            fetches a URL, paying its HTTP 402 up to N satoshis (none without --max-sats)
  tokens [--token <id>]...  the stablecoin and each BSV-21 token given, held at the wallet's addresses
  stablecoin-faucet [units] the local chain's test stablecoin (USDX, 5 decimals; default 10000000 units, $100)
  send-token --token <id|stablecoin> --to <address> --amount <units> [--no-cosign] [--print]
                            sends token units: the stablecoin cosign-locked, signed by its cosigner, then
                            broadcast; --no-cosign prints the hex as the wallet signed it (the chain refuses
                            it), --print prints the finished hex instead of broadcasting

Chain: CHAIN_NETWORK (local), CHAIN_LOCAL_URL (http://127.0.0.1:50070), see packages/chain/README.md.
Plain http only to localhost unless --insecure-http (or CTK_WALLET_INSECURE_HTTP=1).`;

/** Runs one command; resolves with the exit code: 0, or 1 after one line naming what went wrong. */
export async function runWallet(argv: string[], io: WalletIo = processIo): Promise<number> {
  try {
    const options = parseOptions(argv, io.env);
    if (!options.command || options.command === 'help') {
      io.out(USAGE);
      return options.command ? 0 : 1;
    }
    const command = COMMANDS[options.command];
    if (!command) throw new AppError('bad_request', `Unknown command "${options.command}" (see ctk-wallet help).`);
    await command(commandContext(io, options));
    return 0;
  } catch (error) {
    io.err(`ctk-wallet: ${oneLine(error)}`);
    return 1;
  }
}

function oneLine(error: unknown): string {
  const message = (error instanceof Error || AppError.is(error) ? (error as Error).message : String(error)).replace(/\s*\n\s*/g, ' ');
  const unreachableChain = AppError.is(error) && error.code === 'chain_unavailable';
  return unreachableChain ? `${message.replace(/\.$/, '')}: is the chain running (npm run up), and CHAIN_LOCAL_URL right?` : message;
}
