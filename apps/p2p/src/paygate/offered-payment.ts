import { AppError } from '@ctk/shared';
import type { OfferedPayment } from './accept-gate-payment.js';

const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;

/**
 * The payment a request carries, if any: x402's PAYMENT-SIGNATURE (base64 JSON whose `accepted.extra.nonce`
 * names the payment request and whose `payload` holds the BEEF, base64, and its vout), else BRC-121's
 * headers (x-bsv-beef, x-bsv-vout, x-bsv-sender, x-bsv-nonce, x-bsv-time). Malformed is `validation_failed`.
 */
export function offeredPayment(headers: Record<string, string>): OfferedPayment | undefined {
  const signature = headers['payment-signature'];
  if (signature !== undefined) return x402Payment(signature);
  const beef = headers['x-bsv-beef'];
  if (beef === undefined) return undefined;
  const vout = headers['x-bsv-vout'] ?? '';
  if (!/^\d{1,6}$/.test(vout)) throw invalid('x-bsv-vout must be the index of the output that pays, a whole number.', 'x-bsv-vout');
  return {
    protocol: 'brc121',
    transaction: bytesOf(beef, 'x-bsv-beef'),
    vout: Number(vout),
    sender: headers['x-bsv-sender'],
    time: headers['x-bsv-time'],
    derivationPrefix: headers['x-bsv-nonce'],
  };
}

function x402Payment(header: string): OfferedPayment {
  let document: unknown;
  try {
    document = JSON.parse(Buffer.from(header, 'base64').toString('utf8'));
  } catch {
    throw invalid('PAYMENT-SIGNATURE must be base64 of an x402 PaymentPayload (JSON).', 'payment-signature');
  }
  const payload = document as {
    x402Version?: unknown;
    accepted?: { extra?: { nonce?: unknown } };
    payload?: { transaction?: unknown; vout?: unknown };
  };
  if (payload?.x402Version !== 2) throw invalid('PAYMENT-SIGNATURE must be an x402 version 2 PaymentPayload.', 'payment-signature');
  const nonce = payload.accepted?.extra?.nonce;
  if (typeof nonce !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(nonce))
    throw invalid('PAYMENT-SIGNATURE must carry the accepted requirements, with extra.nonce as the 402 answered it.', 'payment-signature');
  const transaction = payload.payload?.transaction;
  if (typeof transaction !== 'string')
    throw invalid('PAYMENT-SIGNATURE payload.transaction must be the BEEF, base64.', 'payment-signature');
  const vout = payload.payload?.vout;
  if (vout !== undefined && !(Number.isInteger(vout) && (vout as number) >= 0 && (vout as number) < 100_000))
    throw invalid('PAYMENT-SIGNATURE payload.vout must be the index of the output that pays.', 'payment-signature');
  return { protocol: 'x402', transaction: bytesOf(transaction, 'payment-signature'), vout: (vout as number | undefined) ?? -1, nonce };
}

function bytesOf(base64: string, field: string): Uint8Array {
  if (!BASE64.test(base64) || base64.length === 0) throw invalid(`${field} must hold the BEEF transaction in base64.`, field);
  return new Uint8Array(Buffer.from(base64, 'base64'));
}

function invalid(message: string, field: string): AppError {
  return new AppError('validation_failed', message, { field });
}
