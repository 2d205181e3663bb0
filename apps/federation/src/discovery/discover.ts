import { AppError } from '@ctk/shared';
import type {
  DiscoverNearbyRequest,
  GetMerchantResponse,
  ListCategoriesResponse,
  SearchCatalogResponse,
} from '@ctk/proto/ctk/federation/v1/federation';
import type { DiscoveryQueries } from '../data/discovery-queries.js';
import type { Hours } from '../open-sign/hours.js';
import { toHoursMessage } from '../open-sign/hours-message.js';
import { toFoundItem, toMerchantMessage } from './merchant-message.js';
import { nearbyCells } from './nearby-cells.js';
import { searchWords } from './search-words.js';

export type DiscoveryContext = { queries: DiscoveryQueries; featured: readonly string[]; now: () => Date };

/** A count asked for: 1 to max, `fallback` when not given. */
export function limitOf(limit: number | undefined, fallback: number, max: number, field = 'limit'): number {
  if (limit === undefined) return fallback;
  if (!Number.isInteger(limit) || limit < 1 || limit > max)
    throw new AppError('validation_failed', `${field} must be a whole number from 1 to ${max}.`, { field });
  return limit;
}

/** A place asked about: a latitude and longitude on the earth. */
export function placeOf(request: { latitude: number; longitude: number }): { latitude: number; longitude: number } {
  if (!Number.isFinite(request.latitude) || Math.abs(request.latitude) > 90)
    throw new AppError('validation_failed', 'latitude must be a number from -90 to 90.', { field: 'latitude' });
  if (!Number.isFinite(request.longitude) || Math.abs(request.longitude) > 180)
    throw new AppError('validation_failed', 'longitude must be a number from -180 to 180.', { field: 'longitude' });
  return { latitude: request.latitude, longitude: request.longitude };
}

export async function discoverNearby(context: DiscoveryContext, request: DiscoverNearbyRequest) {
  const { latitude, longitude } = placeOf(request);
  const radius = limitOf(request.radiusM, 2_000, 50_000, 'radius_m');
  const rows = await context.queries.nearby(
    nearbyCells(latitude, longitude, radius),
    latitude,
    longitude,
    radius,
    limitOf(request.limit, 20, 100),
  );
  const now = context.now();
  return { merchants: rows.map((row) => toMerchantMessage(row, now)) };
}

export async function searchCatalog(context: DiscoveryContext, request: { q: string; limit?: number }): Promise<SearchCatalogResponse> {
  const words = searchWords(request.q);
  const limit = limitOf(request.limit, 20, 100);
  const [items, merchants] = await Promise.all([
    context.queries.itemsMatching(words, limit),
    context.queries.merchantsMatching(words, limit),
  ]);
  const now = context.now();
  return { items: items.map(toFoundItem), merchants: merchants.map((row) => toMerchantMessage(row, now)) };
}

export async function listFeatured(context: DiscoveryContext, request: { limit?: number }) {
  const rows = await context.queries.featured(context.featured, limitOf(request.limit, 12, 100));
  const now = context.now();
  return { merchants: rows.map((row) => toMerchantMessage(row, now)) };
}

export async function listCategories(context: DiscoveryContext): Promise<ListCategoriesResponse> {
  return { categories: await context.queries.categories() };
}

export async function listCategoryMerchants(context: DiscoveryContext, request: { category: string; limit?: number }) {
  const category = request.category.trim();
  if (category.length === 0 || category.length > 60 || /\p{Cc}/u.test(category))
    throw new AppError('validation_failed', 'category must be 1 to 60 characters without control characters.', { field: 'category' });
  const rows = await context.queries.inCategory(category, limitOf(request.limit, 50, 100));
  const now = context.now();
  return { merchants: rows.map((row) => toMerchantMessage(row, now)) };
}

/** A merchant's page: its profile, open state, hours and items (at most 1,000 shown). */
export async function getMerchant(context: DiscoveryContext, request: { merchantHandle: string }): Promise<GetMerchantResponse> {
  const row = await context.queries.merchant(request.merchantHandle);
  if (!row)
    throw new AppError('not_found', `No merchant "${request.merchantHandle}" in the feeds this instance carries.`, {
      field: 'merchant_handle',
    });
  const items = await context.queries.itemsOf(row.id, 1_000);
  return {
    merchant: {
      merchant: toMerchantMessage(row, context.now()),
      items: items.map(toFoundItem),
      hours: toHoursMessage(row.hours as Hours, row.time_zone),
      feedUrl: `${row.origin_url}/api/v1/feeds/${encodeURIComponent(row.handle)}`,
    },
  };
}
