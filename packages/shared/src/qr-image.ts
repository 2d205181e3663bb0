import { AppError } from './errors.js';

const FORMATS = { svg: 'image/svg+xml', png: 'image/png' } as const;

/** The format asked for (empty: SVG); any other than svg or png is 422 naming `format`. */
export function qrFormat(format: string): keyof typeof FORMATS {
  const chosen = format || 'svg';
  if (!Object.hasOwn(FORMATS, chosen)) throw new AppError('validation_failed', 'format must be "svg" or "png"', { field: 'format' });
  return chosen as keyof typeof FORMATS;
}

/**
 * A QR code of `text` as SVG or PNG (512 pixels; `format` as `qrFormat` reads it): an order's or a pay link's
 * payment URI, a ticket's code, a stablecoin intent's address, a referral checkout's payment URI.
 */
export async function qrImage(text: string, format: string): Promise<{ contentType: string; body: Buffer }> {
  const chosen = qrFormat(format);
  // Loaded by the first code drawn, not at every app's start.
  const { default: QRCode } = await import('qrcode');
  const options = { errorCorrectionLevel: 'M' as const, margin: 2 };
  const body =
    chosen === 'svg'
      ? Buffer.from(await QRCode.toString(text, { ...options, type: 'svg' }), 'utf8')
      : await QRCode.toBuffer(text, { ...options, type: 'png', width: 512 });
  return { contentType: FORMATS[chosen], body };
}
