import { qrImage } from '@ctk/shared';
import { findIntent } from './get-intent.js';
import type { StablecoinContext } from './stablecoin-context.js';

/**
 * An intent's address as a QR code, for the customer's wallet to scan off a screen: the address alone, as a
 * token wallet reads it (no bitcoin: URI, which would ask for satoshis). Public, as the intent is: its id is
 * random and names nothing else; an unknown id is 404.
 */
export async function getIntentQr(
  context: Pick<StablecoinContext, 'intents'>,
  paymentId: string,
  format: string,
): Promise<{ contentType: string; body: Buffer }> {
  const intent = await findIntent(context, paymentId);
  return qrImage(intent.address, format);
}
