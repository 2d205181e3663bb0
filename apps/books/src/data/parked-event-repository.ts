import { countParkedEvent } from '@ctk/shared';
import type { ParkedEvent, PrismaClient } from '../generated/prisma/client.js';

export type NewParkedEvent = Pick<ParkedEvent, 'eventId' | 'organizationId' | 'reason' | 'payload'>;
export type ParkedEventRepository = ReturnType<typeof createParkedEventRepository>;

/** Payment events set aside because they cannot be posted. */
export function createParkedEventRepository(prisma: PrismaClient) {
  return {
    /** Parks the event unless it is parked already (ON CONFLICT DO NOTHING); true when this call parked it (counted in ctk_events_parked_total). */
    async park(event: NewParkedEvent): Promise<boolean> {
      const { count } = await prisma.parkedEvent.createMany({ data: [event], skipDuplicates: true });
      if (count === 1) countParkedEvent();
      return count === 1;
    },

    /** How many events are parked (ctk_parked_events). */
    count(): Promise<number> {
      return prisma.parkedEvent.count();
    },

    find(eventId: string): Promise<ParkedEvent | null> {
      return prisma.parkedEvent.findUnique({ where: { eventId } });
    },
  };
}
