import ngeohash from 'ngeohash';

/** The height of a geohash cell at each precision, in metres (its width is at least this below 60 degrees of latitude). */
const CELL_HEIGHT_M: Record<number, number> = { 3: 156_000, 4: 19_500, 5: 4_890, 6: 610, 7: 152 };

/** The precision a place's geohash is stored at (about 150 m). */
export const STORED_PRECISION = 7;

/**
 * The geohash cells to read for everything within `radiusM` of a place: the place's cell and its eight
 * neighbours at the finest precision whose cells are at least the radius across, so the circle lies within
 * them. Each is a prefix of the stored precision-7 hashes (a range of the index).
 */
export function nearbyCells(latitude: number, longitude: number, radiusM: number): string[] {
  const precision = [7, 6, 5, 4].find((p) => CELL_HEIGHT_M[p]! >= radiusM * widening(latitude)) ?? 3;
  const cell = ngeohash.encode(latitude, longitude, precision);
  return [...new Set([cell, ...ngeohash.neighbors(cell)])];
}

/** A cell's width shrinks with the cosine of the latitude: away from the equator, ask for cells as much larger. */
function widening(latitude: number): number {
  return 1 / Math.cos((Math.min(Math.abs(latitude), 85) * Math.PI) / 180);
}

/** A place's stored geohash. */
export function placeHash(latitude: number, longitude: number): string {
  return ngeohash.encode(latitude, longitude, STORED_PRECISION);
}
