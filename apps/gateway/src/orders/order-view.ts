import type { Order } from '@ctk/proto/ctk/pos/v1/pos';
import { toJson } from '../contract/json-mapping.js';
import { ORDER } from './order-answers.js';

/** An order's JSON (the contract's mapping), with the fields the gateway reads of it typed. */
export type OrderJson = Record<string, unknown> & {
  merchant_handle: string;
  bip21_uri: string;
  pay_uri: string;
  payment_request_url: string;
};

/** An order as pos answers it, as the API shows it: the contract's Order by its one JSON mapping. */
export function orderView(order: Order | undefined): OrderJson {
  return toJson(ORDER, order as Record<string, unknown> | undefined) as OrderJson;
}
