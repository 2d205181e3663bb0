import { AppError, type Org } from '@ctk/shared';
import type { GetSignResponse, ShopProfile } from '@ctk/proto/ctk/federation/v1/federation';
import type { Prisma, PrismaClient } from '../generated/prisma/client.js';
import { checkHours } from './check-hours.js';
import type { Hours } from './hours.js';
import { NO_HOURS } from './hours-message.js';
import { signBadge } from './sign-badge.js';
import { signMessage } from './sign-message.js';
import { signState } from './sign-state.js';

/** A shop's hours as stored, or none. */
export async function readHours(prisma: PrismaClient, org: Org): Promise<Hours> {
  const row = await prisma.shopHours.findUnique({ where: { organizationId: org.id } });
  return row ? (row.hours as Hours) : NO_HOURS;
}

/** Replaces a shop's hours after checking them (checkHours: the owner's rules), and answers them as stored. */
export async function replaceHours(prisma: PrismaClient, org: Org, hours: Hours, now: Date): Promise<Hours> {
  const checked = checkHours(hours, now);
  const json = checked as unknown as Prisma.InputJsonValue;
  await prisma.shopHours.upsert({ where: { organizationId: org.id }, create: { organizationId: org.id, hours: json }, update: { hours: json } });
  return checked;
}

/** The open sign of a shop now, as JSON and as its SVG badge. */
export async function getSign(prisma: PrismaClient, org: Org, profile: ShopProfile | undefined, now: Date): Promise<GetSignResponse> {
  if (!profile) throw new AppError('internal', 'the gateway gave no shop profile');
  const state = signState(await readHours(prisma, org), profile.timeZone, now);
  return { shopSign: { handle: org.handle, name: profile.name, sign: signMessage(state) }, svg: signBadge(state, profile.name, now) };
}
