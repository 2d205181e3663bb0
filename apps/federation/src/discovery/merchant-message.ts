import type { FoundItem, Merchant } from '@ctk/proto/ctk/federation/v1/federation';
import type { ItemRow, MerchantRow } from '../data/discovery-queries.js';
import type { Hours } from '../open-sign/hours.js';
import { signMessage } from '../open-sign/sign-message.js';
import { signState } from '../open-sign/sign-state.js';

/** A feed's merchant as discovery shows it, open or not at `now` by the hours its feed carries. */
export function toMerchantMessage(row: MerchantRow, now: Date): Merchant {
  return {
    id: row.id,
    handle: row.handle,
    name: row.name,
    category: row.category ?? undefined,
    latitude: row.latitude ?? undefined,
    longitude: row.longitude ?? undefined,
    distanceM: row.distance_m === undefined ? undefined : BigInt(Math.round(row.distance_m)),
    originUrl: row.origin_url,
    local: row.local,
    paymail: row.paymail ?? undefined,
    sign: signMessage(signState(row.hours as Hours, row.time_zone, now)),
    itemCount: BigInt(row.item_count),
    updatedAt: row.published_at.toISOString(),
  };
}

export function toFoundItem(row: ItemRow): FoundItem {
  return {
    id: row.product_id,
    name: row.name,
    description: row.description,
    category: row.category ?? undefined,
    priceMinor: row.price_minor,
    currency: row.currency,
    satoshis: row.satoshis ?? undefined,
    available: row.available,
    images: row.images,
    merchantId: row.merchant_id,
    merchantName: row.merchant_name,
    originUrl: row.origin_url,
  };
}
