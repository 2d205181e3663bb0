export { receiptScript, parseReceipt, findReceipt, RECEIPT_PROTOCOL, RECEIPT_VERSION, type Receipt } from './receipt-script.js';
export { hashOrderLines, canonicalOrderLines, orderLineSchema, orderLinesSchema, type OrderLine } from './order-lines.js';
