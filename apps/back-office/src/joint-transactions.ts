import { Refusal } from './form.js';
import { satoshisOf } from './satoshis.js';
import { shellWord } from './tokens.js';

/** An input of a jointly signed transaction: the output it spends and whose signatures it needs (decision 0037). */
export type JointInput = {
  txid: string;
  vout: number;
  satoshis: number;
  kind: 'p2pkh' | 'multisig';
  address?: string | null;
  public_keys: string[];
  required: number;
  /** The public keys whose signatures the service holds for this input. */
  signed_by: string[];
};

export type JointOutput = { satoshis: number; script: string; address?: string | null };

/** A transaction partners sign together, as the contracts routes answer it. */
export type JointTransaction = {
  id: string;
  status: 'collecting' | 'signed' | 'broadcast';
  description: string;
  org_handle: string;
  /** The agreed transaction, unsigned, in Extended Format hex: what every partner's wallet signs. */
  transaction: string;
  inputs: JointInput[];
  outputs: JointOutput[];
  fee_satoshis: number;
  txid?: string | null;
  signed_transaction?: string | null;
  created_at: string;
  broadcast_at?: string | null;
  next_steps: string[];
};

/** The public route of a joint transaction: whoever has its id reads it and adds signatures. */
export const jointPath = (id: string) => `/api/v1/joint-transactions/${encodeURIComponent(id)}`;

const STATUS_TEXT: Record<JointTransaction['status'], string> = {
  collecting: 'Collecting signatures',
  signed: 'Signed, not yet on the chain',
  broadcast: 'On the chain',
};

/** Its status in words; one that no one has signed yet says so. */
export function jointStatusText(joint: JointTransaction): string {
  const signatures = joint.inputs.reduce((sum, input) => sum + input.signed_by.length, 0);
  return joint.status === 'collecting' && signatures === 0 ? 'Not signed yet' : (STATUS_TEXT[joint.status] ?? joint.status);
}

/** The command a partner runs to sign their share: the wallet file as typed (one shell word), or a placeholder. */
export function signCommand(walletFile: string, transaction: string): string {
  return `pnpm wallet --file ${walletFile ? shellWord(walletFile) : '<your wallet file>'} sign-transaction --partial ${transaction}`;
}

/** Whether an input has every signature it needs. */
export const inputComplete = (input: JointInput) => input.signed_by.length >= input.required;

/** The coins to spend as typed, one a line ("txid:vout"), as the route takes them; a refusal names the line. */
export function outpointsOf(text: string): { txid: string; vout: number }[] {
  const lines = text.split('\n').map((line) => line.trim());
  const outpoints = lines.flatMap((line, index) => {
    if (!line) return [];
    const match = /^([0-9a-fA-F]{64})\s*[:\s]\s*(\d{1,7})$/.exec(line);
    if (!match)
      throw new Refusal(`Line ${index + 1} is not a coin: write the transaction id, a colon and the output's number, such as <txid>:0.`);
    return [{ txid: match[1]!.toLowerCase(), vout: Number(match[2]) }];
  });
  if (outpoints.length === 0) throw new Refusal('Name at least one coin to spend: its transaction id and output, such as <txid>:0.');
  return outpoints;
}

/** What it pays as typed, one a line ("address satoshis"), as the route takes it; a refusal names the line. */
export function paymentsOf(text: string): { address: string; satoshis: number }[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .flatMap((line, index) => {
      if (!line) return [];
      const match = /^(\S+)[\s,;]+(.+)$/.exec(line);
      if (!match) throw new Refusal(`Line ${index + 1} needs an address and an amount in satoshis, such as <address> 150000.`);
      try {
        const satoshis = satoshisOf(match[2]!, 'the amount');
        if (satoshis < 1) throw new Refusal('pay at least 1 satoshi.');
        return [{ address: match[1]!, satoshis }];
      } catch (error) {
        throw new Refusal(`Line ${index + 1}: ${error instanceof Refusal ? lowerFirst(error.message) : String(error)}`);
      }
    });
}

const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);
