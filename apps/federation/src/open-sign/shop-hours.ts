import { AppError, type Org } from '@ctk/shared';
import type { GetSignResponse, ShopProfile } from '@ctk/proto/ctk/federation/v1/federation';
import type { Prisma, PrismaClient } from '../generated/prisma/client.js';
import { checkHours } from './check-hours.js';
import type { Hours } from './hours.js';
import { NO_HOURS } from './hours-message.js';
import { signBadge } from './sign-badge.js';
import { signMessage } from './sign-message.js';
import { signState } from './sign-state.js';

/** A shop's hours as stored (less a manual sign that has expired, so they can be sent back as they are), or none. */
export async function readHours(prisma: PrismaClient, org: Org, now: Date): Promise<Hours> {
  const row = await prisma.shopHours.findUnique({ where: { organizationId: org.id } });
  if (!row) return NO_HOURS;
  const { override, ...hours } = row.hours as Hours;
  return override && Date.parse(override.until) > now.getTime() ? { ...hours, override } : hours;
}

/** Replaces a shop's hours after checking them (checkHours: the owner's rules), and answers them as stored. */
export async function replaceHours(prisma: PrismaClient, org: Org, hours: Hours, now: Date): Promise<Hours> {
  const checked = checkHours(hours, now);
  const json = checked as unknown as Prisma.InputJsonValue;
  await prisma.shopHours.upsert({
    where: { organizationId: org.id },
    create: { organizationId: org.id, hours: json },
    update: { hours: json },
  });
  return checked;
}

/** The open sign of a shop now, as JSON and as its SVG badge. */
export async function getSign(prisma: PrismaClient, org: Org, profile: ShopProfile | undefined, now: Date): Promise<GetSignResponse> {
  if (!profile) throw new AppError('internal', 'the gateway gave no shop profile');
  const state = signState(await readHours(prisma, org, now), profile.timeZone, now);
  return { shopSign: { handle: org.handle, name: profile.name, sign: signMessage(state) }, svg: signBadge(state, profile.name, now) };
}
