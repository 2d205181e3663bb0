import { AppError } from '@ctk/shared';
import QRCode from 'qrcode';

const FORMATS = { svg: 'image/svg+xml', png: 'image/png' } as const;

/**
 * A QR code of `text` as SVG (`format` empty or "svg") or PNG ("png", 512 pixels), drawn as pos draws an order's:
 * a ticket's code, a stablecoin intent's address. Any other format is 422 naming `format`.
 */
export async function qrImage(text: string, format: string): Promise<{ contentType: string; body: Buffer }> {
  const chosen = format || 'svg';
  if (!Object.hasOwn(FORMATS, chosen)) throw new AppError('validation_failed', 'format must be "svg" or "png"', { field: 'format' });
  const options = { errorCorrectionLevel: 'M' as const, margin: 2 };
  const body =
    chosen === 'svg'
      ? Buffer.from(await QRCode.toString(text, { ...options, type: 'svg' }), 'utf8')
      : await QRCode.toBuffer(text, { ...options, type: 'png', width: 512 });
  return { contentType: FORMATS[chosen as keyof typeof FORMATS], body };
}
