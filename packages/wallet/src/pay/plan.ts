import type { LockingScript, Transaction } from '@bsv/sdk';

export type PlannedOutput = { lockingScript: LockingScript; satoshis: number };

/** What paying a target means: the outputs to fund, and how the signed transaction reaches the payee. */
export type PaymentPlan = {
  /** The payee as shown to the user: an address, a paymail or a payment request's URL. */
  to: string;
  outputs: PlannedOutput[];
  /** The merchant a receipt names by default (a paymail). */
  merchant?: string;
  /** Hands the signed transaction over: broadcast, a paymail's receive-transaction, a payment request's payment URL. */
  deliver(tx: Transaction): Promise<{ via: string; note?: string }>;
};
