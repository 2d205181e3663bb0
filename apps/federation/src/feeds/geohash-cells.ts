import ngeohash from 'ngeohash';
import { invalidInput } from '@ctk/shared';

/** The geohash precisions a feed names its place at: 4 (about 39 km) down to 7 (about 150 m). */
export const FEED_PRECISIONS: readonly number[] = Object.freeze([4, 5, 6, 7]);

/** The geohash cells that hold a point, one per {@link FEED_PRECISIONS} (each a prefix of the next). */
export function geohashCells(latitude: number, longitude: number): string[] {
  if (!Number.isFinite(latitude) || latitude < -90 || latitude > 90) {
    throw invalidInput([{ field: 'latitude', message: 'must be a number from -90 to 90' }], 'feed');
  }
  if (!Number.isFinite(longitude) || longitude < -180 || longitude > 180) {
    throw invalidInput([{ field: 'longitude', message: 'must be a number from -180 to 180' }], 'feed');
  }
  const finest = ngeohash.encode(latitude, longitude, Math.max(...FEED_PRECISIONS));
  return FEED_PRECISIONS.map((precision) => finest.slice(0, precision));
}
