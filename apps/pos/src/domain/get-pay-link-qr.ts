import { qrFormat, qrImage } from '@ctk/shared';
import type { PayLinkContext } from '../pay-links/pay-link-context.js';
import { payLinkPageUrl } from '../pay-links/pay-link-page.js';
import { getPayLink } from './get-pay-link.js';

/** The QR code of the link's public page URL: the payer scans it and chooses on the page. */
export async function getPayLinkQr(
  context: PayLinkContext,
  input: { id: string; publicUrl: string; format: string },
): Promise<{ contentType: string; body: Buffer }> {
  qrFormat(input.format);
  const link = await getPayLink(context, input.id);
  return qrImage(payLinkPageUrl(input.publicUrl, link.id), input.format);
}
