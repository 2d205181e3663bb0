/** Where the public reads and BIP270 answer for an order, under the gateway's public base URL. */
export function orderUrls(publicUrl: string, orderNumber: string) {
  const base = `${publicUrl.replace(/\/+$/, '')}/api/pos/orders/${orderNumber}`;
  return { paymentRequestUrl: `${base}/payment-request`, paymentUrl: `${base}/payment` };
}

/** Satoshis as BSV, exactly, without trailing zeros ("0.0001025"). */
export function bsvAmount(satoshis: bigint): string {
  const whole = satoshis / 100_000_000n;
  const fraction = (satoshis % 100_000_000n).toString().padStart(8, '0').replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : whole.toString();
}

/**
 * The order's payment URIs (decision 0015): BIP21 with `sv` and `r=` (a BIP270 wallet fetches the
 * request, another pays the address the amount still due), and `pay:` for BIP270 alone.
 */
export function paymentUris(
  order: { address: string; orderNumber: string; merchantHandle: string },
  dueSatoshis: bigint,
  publicUrl: string,
) {
  const { paymentRequestUrl } = orderUrls(publicUrl, order.orderNumber);
  const query = [
    'sv',
    `amount=${bsvAmount(dueSatoshis)}`,
    `label=${encodeURIComponent(order.merchantHandle)}`,
    `message=${encodeURIComponent(`Order ${order.orderNumber}`)}`,
    `r=${encodeURIComponent(paymentRequestUrl)}`,
  ].join('&');
  return {
    bip21Uri: `bitcoin:${order.address}?${query}`,
    payUri: `pay:?r=${encodeURIComponent(paymentRequestUrl)}`,
    paymentRequestUrl,
  };
}
