import type { OrderContext } from '../orders/order-context.js';
import { dueSatoshis } from '../orders/order-state.js';
import { paymentUris } from '../orders/payment-uris.js';
import { qrFormat, qrImage } from '@ctk/shared';
import { getOrder } from './get-order.js';

/** The QR code of the order's BIP21 URI (it carries `r=`: a BIP270 wallet uses it, another pays the address). */
export async function getOrderQr(
  context: OrderContext,
  input: { orderNumber: string; publicUrl: string; format: string },
): Promise<{ contentType: string; body: Buffer }> {
  qrFormat(input.format);
  const order = await getOrder(context, input.orderNumber);
  const { bip21Uri } = paymentUris(order, dueSatoshis(order, context.now()), input.publicUrl);
  return qrImage(bip21Uri, input.format);
}
