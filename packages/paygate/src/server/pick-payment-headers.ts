import { CREDENTIAL_HEADER, PAYMENT_HEADERS, TRANSACTION_HEADERS } from '../headers.js';

export type RequestHeaders = Record<string, string | string[] | undefined>;

export type PickedHeaders = { headers: Record<string, string> } | { tooLarge: { name: string; limit: number } };

/**
 * The payment headers a request carries, and nothing else: the gate sees no cookie, no authorization of
 * the client's, no body. Each is bounded (a BEEF by `maxTransactionBytes`, the others by `maxBytes`);
 * the credential is left out when this process already refused it for good.
 */
export function pickPaymentHeaders(
  from: RequestHeaders,
  { maxTransactionBytes, maxBytes, withCredential }: { maxTransactionBytes: number; maxBytes: number; withCredential: boolean },
): PickedHeaders {
  const headers: Record<string, string> = {};
  for (const name of PAYMENT_HEADERS) {
    if (name === CREDENTIAL_HEADER && !withCredential) continue;
    const value = headerValue(from[name]);
    if (value === undefined) continue;
    const limit = TRANSACTION_HEADERS.has(name) ? maxTransactionBytes : maxBytes;
    if (Buffer.byteLength(value) > limit) return { tooLarge: { name, limit } };
    headers[name] = value;
  }
  return { headers };
}

export function headerValue(value: string | string[] | undefined): string | undefined {
  return typeof value === 'string' ? value : value?.[0];
}
