import type {
  TokenRedemption as TokenRedemptionMessage,
  TokenRedemptionAddress as AddressMessage,
} from '@ctk/proto/ctk/contracts/v1/contracts';
import type { TokenRedemptionAddress } from '../data/redemption-repository.js';
import type { AppliedRedemption } from './redeem-tokens.js';

export function toRedemptionAddressMessage(row: TokenRedemptionAddress): AddressMessage {
  return { tokenId: row.tokenId, orderNumber: row.orderNumber, address: row.address, expiresAt: row.holdExpiresAt.toISOString() };
}

export function toRedemptionMessage({ redemption: row, valueMinor, currency, order }: AppliedRedemption): TokenRedemptionMessage {
  return {
    id: row.id,
    tokenId: row.tokenId,
    orderNumber: row.orderNumber,
    address: row.address,
    txid: row.txid,
    vout: row.vout,
    amount: row.amount,
    redeemedAt: row.createdAt.toISOString(),
    valueMinor,
    currency,
    order,
  };
}
