import type { ParkedEvent, PrismaClient } from '../generated/prisma/client.js';

export type NewParkedEvent = Pick<ParkedEvent, 'eventId' | 'organizationId' | 'reason' | 'payload'>;
export type ParkedEventRepository = ReturnType<typeof createParkedEventRepository>;

/** Payment events set aside because they cannot be posted. */
export function createParkedEventRepository(prisma: PrismaClient) {
  return {
    /** Parks the event unless it is parked already (ON CONFLICT DO NOTHING); true when this call parked it. */
    async park(event: NewParkedEvent): Promise<boolean> {
      const { count } = await prisma.parkedEvent.createMany({ data: [event], skipDuplicates: true });
      return count === 1;
    },

    find(eventId: string): Promise<ParkedEvent | null> {
      return prisma.parkedEvent.findUnique({ where: { eventId } });
    },
  };
}
