import type { GateAccount } from '@ctk/proto/ctk/p2p/v1/p2p';
import { AppError, orgOf, type Org } from '@ctk/shared';

/** The payment-gate account of a call, as the gateway resolved it from the paygate key, and its organisation. */
export type Account = { id: string; org: Org };

/** A UUID, as the gateway's ids and the gate's are. */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function accountOf(account: GateAccount | undefined): Account {
  if (!account || !UUID.test(account.accountId))
    throw new AppError('bad_request', 'The call must name the payment-gate account (account.account_id, a UUID).', {
      field: 'account.account_id',
    });
  return { id: account.accountId, org: orgOf(account.org) };
}

/** The network name x402 uses for the chain in use. */
export function x402Network(network: 'main' | 'test' | 'local'): string {
  return network === 'main' ? 'bsv:mainnet' : network === 'test' ? 'bsv:testnet' : 'bsv:local';
}
