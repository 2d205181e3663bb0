import type { PayLink } from '@ctk/proto/ctk/pos/v1/pos';
import type { z } from 'zod';
import { exampleOf, messageDesc } from '../contract/contract-registry.js';
import { toJson } from '../contract/json-mapping.js';
import { messageSchema } from '../contract/message-schema.js';
import { named } from '../routes/answer-schema.js';

/**
 * The pay link as anyone with it sees it (decision 0015, "Pay links"): pos's link, less what is private
 * (no organisation id, no creator, no use counts): the signed terms and whether the link takes a payment.
 */
const PAY_LINK = messageDesc('ctk.pos.v1.PayLink');
const PUBLIC = { terms: true, signature: true, status: true, page_url: true, qr_url: true } as const;

const onlyPublic = (json: Record<string, unknown>) => Object.fromEntries(Object.keys(PUBLIC).map((key) => [key, json[key]]));

export const publicPayLink = named(
  'PublicPayLink',
  (messageSchema(PAY_LINK, 'answer') as z.ZodObject).pick(PUBLIC),
  onlyPublic(exampleOf(PAY_LINK) as Record<string, unknown>) as never,
);

export function publicPayLinkJson(link: PayLink | undefined): z.output<typeof publicPayLink> {
  return onlyPublic(toJson(PAY_LINK, link && { ...link })) as z.output<typeof publicPayLink>;
}

export const PAY_LINK_QR_FILES = {
  'image/svg+xml': {
    description: 'The QR code of the link’s public page URL as SVG',
    example: '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 45 45" shape-rendering="crispEdges">…</svg>',
  },
  'image/png': { description: 'The same QR code as a PNG image (512 pixels)', example: '(PNG bytes)' },
};
