import { homedir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { AppError } from '@ctk/shared';

export type WalletOptions = {
  command: string | undefined;
  args: string[];
  file: string;
  json: boolean;
  force: boolean;
  insecureHttp: boolean;
  amount?: string;
  merchant?: string;
  reference?: string;
  lines?: string;
  limit?: string;
  maxSats?: string;
  method?: string;
  data?: string;
  header: string[];
  /** `tokens`: token ids to show besides the stablecoin; `send-token`: the one token (an id, or `stablecoin`). */
  token: string[];
  to?: string;
  /** `send-token`: print the owner-signed transaction, without asking the cosigner or broadcasting. */
  noCosign: boolean;
  /** `send-token`: print the signed transaction instead of broadcasting it. */
  print: boolean;
  /** `sign-transaction`: sign the inputs this wallet can and leave partners' inputs unsigned (a joint transaction). */
  partial: boolean;
};

export const DEFAULT_WALLET_FILE = '.ctk-wallet.json';

/** Command line: `<command> [args] [--file F] [--json] ...`; the wallet file also from CTK_WALLET_FILE. */
export function parseOptions(argv: string[], env: Record<string, string | undefined>): WalletOptions {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        file: { type: 'string' },
        json: { type: 'boolean', default: false },
        force: { type: 'boolean', default: false },
        'insecure-http': { type: 'boolean', default: false },
        amount: { type: 'string' },
        merchant: { type: 'string' },
        reference: { type: 'string' },
        lines: { type: 'string' },
        limit: { type: 'string' },
        'max-sats': { type: 'string' },
        method: { type: 'string' },
        data: { type: 'string' },
        header: { type: 'string', multiple: true, default: [] },
        token: { type: 'string', multiple: true, default: [] },
        to: { type: 'string' },
        'no-cosign': { type: 'boolean', default: false },
        print: { type: 'boolean', default: false },
        partial: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (error) {
    throw new AppError('bad_request', `${(error as Error).message.split('\n')[0]} (see ctk-wallet help).`);
  }
  const { values, positionals } = parsed;
  const [command, ...args] = positionals;
  return {
    command: values.help ? 'help' : command,
    args,
    file: values.file ?? env.CTK_WALLET_FILE ?? join(env.HOME ?? homedir(), DEFAULT_WALLET_FILE),
    json: values.json,
    force: values.force,
    insecureHttp: values['insecure-http'] || env.CTK_WALLET_INSECURE_HTTP === '1',
    amount: values.amount,
    merchant: values.merchant,
    reference: values.reference,
    lines: values.lines,
    limit: values.limit,
    maxSats: values['max-sats'],
    method: values.method,
    data: values.data,
    header: values.header,
    token: values.token,
    to: values.to,
    noCosign: values['no-cosign'],
    print: values.print,
    partial: values.partial,
  };
}
