import { AppError } from '@ctk/shared';
import QRCode from 'qrcode';
import type { OrderContext } from '../orders/order-context.js';
import { dueSatoshis } from '../orders/order-state.js';
import { paymentUris } from '../orders/payment-uris.js';
import { getOrder } from './get-order.js';

const FORMATS = { svg: 'image/svg+xml', png: 'image/png' } as const;

/** The QR code of the order's BIP21 URI (it carries `r=`: a BIP270 wallet uses it, another pays the address). */
export async function getOrderQr(
  context: OrderContext,
  input: { orderNumber: string; publicUrl: string; format: string },
): Promise<{ contentType: string; body: Buffer }> {
  const format = (input.format || 'svg') as keyof typeof FORMATS;
  if (!(format in FORMATS)) throw new AppError('validation_failed', 'format must be "svg" or "png"', { field: 'format' });
  const order = await getOrder(context, input.orderNumber);
  const { bip21Uri } = paymentUris(order, dueSatoshis(order, context.now()), input.publicUrl);
  const options = { errorCorrectionLevel: 'M' as const, margin: 2 };
  const body =
    format === 'svg'
      ? Buffer.from(await QRCode.toString(bip21Uri, { ...options, type: 'svg' }), 'utf8')
      : await QRCode.toBuffer(bip21Uri, { ...options, type: 'png', width: 512 });
  return { contentType: FORMATS[format], body };
}
