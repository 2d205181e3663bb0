import type { X402Grant, X402PaymentRequired } from '@ctk/proto/ctk/p2p/v1/x402';
import type { GateResource } from '../generated/prisma/client.js';

/** What a 402 offers: one payment request's output, nonce and expiry. */
export type Offer = {
  resource: GateResource;
  url: string;
  network: string;
  nonce: string;
  script: string;
  address: string;
  /** The fresh child's public key (compressed, hex): BRC-121's x-bsv-server; the payment pays its P2PKH. */
  serverKey: string;
  timeoutSeconds: number;
};

/**
 * The 402 answer speaking both protocols: x402 v2's PaymentRequired (scheme `exact`; as the body and,
 * base64, the PAYMENT-REQUIRED header) and BRC-121's x-bsv-sats and x-bsv-server.
 */
export function paymentRequired(offer: Offer, error: string): { headers: Record<string, string>; body: X402PaymentRequired } {
  const price = offer.resource.priceSatoshis.toString();
  const document: X402PaymentRequired = {
    x402Version: 2,
    error,
    resource: {
      url: offer.url,
      description: offer.resource.description || `${offer.resource.method} ${offer.resource.path}`,
      mimeType: '',
    },
    accepts: [
      {
        scheme: 'exact',
        network: offer.network,
        amount: price,
        asset: 'BSV',
        payTo: offer.address,
        maxTimeoutSeconds: offer.timeoutSeconds,
        extra: { nonce: offer.nonce, lockingScript: offer.script, serverKey: offer.serverKey, grant: grantOf(offer.resource) },
      },
    ],
  };
  return {
    headers: {
      'x-bsv-sats': price,
      'x-bsv-server': offer.serverKey,
      'payment-required': Buffer.from(JSON.stringify(document)).toString('base64'),
    },
    body: document,
  };
}

/** What one payment buys, as the 402 tells the payer before it pays. */
function grantOf(resource: GateResource): X402Grant {
  return resource.grantKind === 'calls'
    ? { kind: 'calls', calls: resource.grantCalls ?? undefined }
    : { kind: 'window', seconds: resource.grantSeconds ?? undefined };
}
