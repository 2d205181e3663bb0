import { z } from 'zod';

export const paymailParams = z.object({ paymail: z.string().min(3).max(320) });
export const verifyParams = paymailParams.extend({ pubkey: z.string().max(200) });
export const text = (max: number) => z.string().max(max).optional();
export const senderRequest = z.object({
  senderName: text(100),
  senderHandle: text(320),
  dt: text(64),
  amount: z.union([z.number().int().min(0).max(Number.MAX_SAFE_INTEGER), z.string().regex(/^\d{1,16}$/)]).optional(),
  purpose: text(500),
  signature: text(200),
});
export const metadata = z.object({ sender: text(320), pubkey: text(200), signature: text(200), note: text(500) }).optional();
export const beefBody = z.object({ beef: z.string().min(2).max(2_000_000), metadata, reference: z.string().min(1).max(100) });
export const receiveBody = z.object({ hex: z.string().min(2).max(2_000_000), metadata, reference: z.string().min(1).max(100) });

import { BEEF_HEX, REFERENCE, SENDER, TX_HEX } from './paymail-answers.js';

/** Request examples of the paymail routes, a customer paying cafe@example.com. */

export const senderRequestExample = {
  senderName: 'Ann Lee',
  senderHandle: SENDER.sender,
  dt: '2026-03-02T09:41:07.000Z',
  amount: 25_000,
  purpose: 'Two lattes',
  signature: 'INZ7ilMypAfkwWyX3/9l4Ad6hz7vr7nl7c64ZerZzgM7EwNM4vyThK/jAcgVj29zhZjBtJw5FE8Vlq37UgY8Cho=',
};
export const receiveTransactionExample = { hex: TX_HEX, reference: REFERENCE, metadata: SENDER };
export const receiveBeefExample = {
  beef: BEEF_HEX,
  reference: REFERENCE,
  metadata: SENDER,
};
