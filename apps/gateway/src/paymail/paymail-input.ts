import { BEEF_HEX, REFERENCE, SENDER, TX_HEX } from './paymail-answers.js';

/** Request examples of the paymail routes, a customer paying cafe@example.com (their schemas are still in routes/paymail-routes.ts). */

export const senderRequestExample = {
  senderName: 'Ann Lee',
  senderHandle: SENDER.sender,
  dt: '2026-03-02T09:41:07.000Z',
  amount: 25_000,
  purpose: 'Two lattes',
  signature: 'INZ7ilMypAfkwWyX3/9l4Ad6hz7vr7nl7c64ZerZzgM7EwNM4vyThK/jAcgVj29zhZjBtJw5FE8Vlq37UgY8Cho=',
};
export const p2pDestinationExample = { satoshis: 25_000 };
export const receiveTransactionExample = { hex: TX_HEX, reference: REFERENCE, metadata: SENDER };
export const receiveBeefExample = {
  beef: BEEF_HEX,
  reference: REFERENCE,
  metadata: SENDER,
};
