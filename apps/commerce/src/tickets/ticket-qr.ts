import { AppError } from '@ctk/shared';
import QRCode from 'qrcode';
import type { TicketRepository } from '../data/ticket-repository.js';
import { TICKET_CODE } from './ticket-code.js';

const FORMATS = { svg: 'image/svg+xml', png: 'image/png' } as const;

/**
 * A ticket's QR code, as the order's is made (pos's qr-image): the code alone, which the door's scanner
 * reads and staff check in. Public: the code is unguessable, and the image says nothing else.
 */
export async function getTicketQr(
  tickets: Pick<TicketRepository, 'exists'>,
  rawCode: string,
  format: string,
): Promise<{ contentType: string; body: Buffer }> {
  const chosen = format || 'svg';
  if (!Object.hasOwn(FORMATS, chosen)) throw new AppError('validation_failed', 'format must be "svg" or "png"', { field: 'format' });
  const code = rawCode.trim().toUpperCase();
  if (!TICKET_CODE.test(code) || !(await tickets.exists(code))) throw new AppError('not_found', 'No ticket with this code');
  const options = { errorCorrectionLevel: 'M' as const, margin: 2 };
  const body =
    chosen === 'svg'
      ? Buffer.from(await QRCode.toString(code, { ...options, type: 'svg' }), 'utf8')
      : await QRCode.toBuffer(code, { ...options, type: 'png', width: 512 });
  return { contentType: FORMATS[chosen as keyof typeof FORMATS], body };
}
