import { AppError, qrImage } from '@ctk/shared';
import type { TicketRepository } from '../data/ticket-repository.js';
import { TICKET_CODE } from './ticket-code.js';

/**
 * A ticket's QR code, as the order's is made (pos's qr-image): the code alone, which the door's scanner
 * reads and staff check in. Public: the code is unguessable, and the image says nothing else.
 */
export async function getTicketQr(
  tickets: Pick<TicketRepository, 'exists'>,
  rawCode: string,
  format: string,
): Promise<{ contentType: string; body: Buffer }> {
  if (format && format !== 'svg' && format !== 'png')
    throw new AppError('validation_failed', 'format must be "svg" or "png"', { field: 'format' });
  const code = rawCode.trim().toUpperCase();
  if (!TICKET_CODE.test(code) || !(await tickets.exists(code))) throw new AppError('not_found', 'No ticket with this code');
  return qrImage(code, format);
}
