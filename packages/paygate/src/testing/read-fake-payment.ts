import { Transaction } from '@bsv/sdk';

/** A payment as the fake gate reads it from the check's headers: the transaction, the output index, and how it finds the request. */
export type OfferedPayment = { tx: Transaction; beef: Uint8Array; vout: number } & ({ nonce: string } | { sender: string; time: number });

/**
 * The payment a check's headers carry (x402's `payment-signature`, or BRC-121's five headers), or a
 * reason it is not one. The transaction is parsed from its BEEF; SPV is the `acceptTransaction` hook's.
 */
export function readFakePayment(headers: Record<string, string>): OfferedPayment | { invalid: string } | undefined {
  const signature = headers['payment-signature'];
  if (signature) {
    try {
      const payment = JSON.parse(Buffer.from(signature, 'base64').toString('utf8')) as {
        x402Version?: unknown;
        accepted?: { extra?: { nonce?: unknown } };
        payload?: { transaction?: unknown; vout?: unknown };
      };
      const nonce = payment.accepted?.extra?.nonce;
      const { transaction, vout } = payment.payload ?? {};
      if (payment.x402Version !== 2 || typeof nonce !== 'string' || typeof transaction !== 'string' || !Number.isInteger(vout))
        return { invalid: 'payment-signature is not an x402 v2 payment with a nonce, a transaction and a vout' };
      return { ...parseBeef(transaction), vout: vout as number, nonce };
    } catch (error) {
      return { invalid: `payment-signature cannot be read: ${(error as Error).message}` };
    }
  }
  const beef = headers['x-bsv-beef'];
  if (!beef) return undefined;
  const [sender, time, vout] = [headers['x-bsv-sender'], Number(headers['x-bsv-time']), Number(headers['x-bsv-vout'])];
  if (!sender || !headers['x-bsv-nonce'] || !Number.isInteger(time) || !Number.isInteger(vout))
    return { invalid: 'a BRC-121 payment needs x-bsv-beef, x-bsv-sender, x-bsv-nonce, x-bsv-time and x-bsv-vout' };
  try {
    return { ...parseBeef(beef), vout, sender, time };
  } catch (error) {
    return { invalid: `x-bsv-beef cannot be read: ${(error as Error).message}` };
  }
}

function parseBeef(base64: string): { tx: Transaction; beef: Uint8Array } {
  const beef = Uint8Array.from(Buffer.from(base64, 'base64'));
  return { tx: Transaction.fromBEEF(beef), beef };
}
