import { Prisma } from '../generated/prisma/client.js';

/** Metres between a row's latitude and longitude and a place (haversine on the mean radius), as SQL. */
export const distanceFrom = (latitude: number, longitude: number) => Prisma.sql`(12742017.6 * asin(sqrt(
  power(sin(radians(latitude - ${latitude}) / 2), 2) +
  cos(radians(${latitude})) * cos(radians(latitude)) * power(sin(radians(longitude - ${longitude}) / 2), 2))))`;

/** Rows whose geohash starts with one of the cells: a range of the index per cell (the column is in the C collation). */
export const inCells = (cells: readonly string[]) =>
  Prisma.join(
    cells.map((cell) => Prisma.sql`(geohash >= ${cell} AND geohash < ${`${cell}~`})`),
    ' OR ',
  );
