import { expectedSignature } from '../src/providers/webhook-signature.js';

/** A signature header as a provider sends it (`t=<unix seconds>` and one `v1` per secret), for deliveries in tests. */
export function signPayload(secrets: string | string[], rawBody: Uint8Array | string, timestamp = Math.floor(Date.now() / 1000)): string {
  const body = typeof rawBody === 'string' ? Buffer.from(rawBody) : rawBody;
  const v1 = [secrets].flat().map((secret) => `v1=${expectedSignature(secret, timestamp, body).toString('hex')}`);
  return [`t=${timestamp}`, ...v1].join(',');
}
