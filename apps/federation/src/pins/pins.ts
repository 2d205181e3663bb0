import { AppError, lineOfText, validate } from '@ctk/shared';
import type { CreatePinRequest, ListNearbyPinsRequest, Pin } from '@ctk/proto/ctk/federation/v1/federation';
import { z } from 'zod';
import type { Prisma, PrismaClient } from '../generated/prisma/client.js';
import { distanceFrom, inCells } from '../data/geo-sql.js';
import { limitOf, placeOf } from '../discovery/discover.js';
import { nearbyCells, placeHash } from '../discovery/nearby-cells.js';

export type PinContext = {
  prisma: PrismaClient;
  limits: { anonymousPerDay: number; anonymousDays: number; perUser: number };
  now: () => Date;
};

const DAY_MS = 86_400_000;

const pinText = z.object({
  label: lineOfText('label', 80).pipe(z.string().min(1, 'label must not be empty')),
  note: lineOfText('note', 280).optional(),
  category: lineOfText('category', 60).optional(),
});

/**
 * A pin on the map. A signed-in user's stays and counts towards their `perUser`; an anonymous one expires
 * after `anonymousDays`, and one client address makes at most `anonymousPerDay` a day (429 past it), counted
 * under a lock on that address so a burst cannot pass the bound.
 */
export async function createPin(context: PinContext, request: CreatePinRequest): Promise<Pin> {
  const place = placeOf(request);
  const text = validate(pinText, { label: request.label, note: request.note, category: request.category });
  const now = context.now();
  const anonymous = request.createdBy === '';
  return context.prisma.$transaction(async (tx) => {
    const owner = anonymous ? `address:${request.clientAddress}` : `user:${request.createdBy}`;
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${owner}))`;
    if (anonymous) {
      const today = await tx.pin.count({
        where: { clientAddress: request.clientAddress, createdBy: null, createdAt: { gt: new Date(now.getTime() - DAY_MS) } },
      });
      if (today >= context.limits.anonymousPerDay)
        throw new AppError(
          'rate_limited',
          `An anonymous caller may pin ${context.limits.anonymousPerDay} places a day; sign in with an API key to pin more.`,
        );
    } else if ((await tx.pin.count({ where: { createdBy: request.createdBy } })) >= context.limits.perUser) {
      throw new AppError('rate_limited', `A user keeps at most ${context.limits.perUser} pins.`);
    }
    const row = await tx.pin.create({
      data: {
        ...place,
        geohash: placeHash(place.latitude, place.longitude),
        label: text.label,
        note: text.note ?? null,
        category: text.category ?? null,
        createdBy: anonymous ? null : request.createdBy,
        clientAddress: anonymous ? request.clientAddress : null,
        expiresAt: anonymous ? new Date(now.getTime() + context.limits.anonymousDays * DAY_MS) : null,
        createdAt: now,
      },
    });
    return toPinMessage(row);
  });
}

type PinRow = Pick<
  Prisma.PinGetPayload<object>,
  'id' | 'latitude' | 'longitude' | 'label' | 'note' | 'category' | 'expiresAt' | 'createdAt'
> & {
  distanceM?: number;
};

/** Pins within the radius of a place that have not expired, nearest first. */
export async function listNearbyPins(context: PinContext, request: ListNearbyPinsRequest): Promise<Pin[]> {
  const { latitude, longitude } = placeOf(request);
  const radius = limitOf(request.radiusM, 2_000, 50_000, 'radius_m');
  const limit = limitOf(request.limit, 50, 200);
  const cells = nearbyCells(latitude, longitude, radius);
  const rows = await context.prisma.$queryRaw<PinRow[]>`
    SELECT * FROM (
      SELECT id, latitude, longitude, label, note, category, expires_at AS "expiresAt", created_at AS "createdAt",
        ${distanceFrom(latitude, longitude)} AS "distanceM"
      FROM pins WHERE (${inCells(cells)}) AND (expires_at IS NULL OR expires_at > ${context.now()})) near
    WHERE "distanceM" <= ${radius} ORDER BY "distanceM", id LIMIT ${limit}`;
  return rows.map(toPinMessage);
}

function toPinMessage(row: PinRow): Pin {
  return {
    id: row.id,
    latitude: row.latitude,
    longitude: row.longitude,
    label: row.label,
    note: row.note ?? undefined,
    category: row.category ?? undefined,
    expiresAt: row.expiresAt?.toISOString(),
    createdAt: row.createdAt.toISOString(),
    distanceM: row.distanceM === undefined ? undefined : BigInt(Math.round(row.distanceM)),
  };
}
