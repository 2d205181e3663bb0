import { AppError, oneAtATime, retryLostRace } from '@ctk/shared';
import { Prisma, type PrismaClient, type Ticket, type TicketEvent, type TicketHold, type TicketType } from '../generated/prisma/client.js';
import { newTicketCode } from '../tickets/ticket-code.js';

export type { Ticket, TicketEvent, TicketHold, TicketType };
export type TicketRepository = ReturnType<typeof createTicketRepository>;
type Db = Prisma.TransactionClient | PrismaClient;

/** Seats of a type: paid for, and held by checkouts still pending. */
export type SeatCounts = { sold: number; held: number };
export type EventWithTypes = TicketEvent & { ticketTypes: TicketType[] };
export type TicketWithNames = Ticket & { ticketType: TicketType & { event: TicketEvent } };

export type CatalogEventInput = {
  id: string | null;
  name: string;
  venue: string;
  startsAt: Date;
  endsAt: Date;
  ticketTypes: { id: string | null; name: string; priceMinor: bigint; currency: string; capacity: number }[];
};

/**
 * Ticket catalogs, seat holds and tickets over Prisma (decision 0020). Every change to what a type has
 * taken (a hold, a sale after expiry, a capacity change) runs with the type's row locked, so the
 * capacity check and the write are one step: a type is never oversold, whatever runs at once.
 */
export function createTicketRepository(prisma: PrismaClient) {
  const oneReplacement = oneAtATime();
  const oneHold = oneAtATime();
  /** Locks the types' rows (in id order, so two transactions never wait on each other in a cycle). */
  async function lockTypes(tx: Prisma.TransactionClient, ids: string[]) {
    if (ids.length === 0) return;
    const sorted = [...new Set(ids)].sort();
    await tx.$queryRaw`SELECT id FROM ticket_types WHERE id IN (${Prisma.join(sorted.map((id) => Prisma.sql`${id}::uuid`))}) ORDER BY id FOR UPDATE`;
  }

  async function seatCounts(db: Db, typeIds: string[], now: Date): Promise<Map<string, SeatCounts>> {
    const counts = new Map<string, SeatCounts>(typeIds.map((id) => [id, { sold: 0, held: 0 }]));
    if (typeIds.length === 0) return counts;
    const rows = await db.ticketHold.groupBy({
      by: ['ticketTypeId', 'state'],
      where: { ticketTypeId: { in: typeIds }, OR: [{ state: 'sold' }, { state: 'held', expiresAt: { gt: now } }] },
      _sum: { quantity: true },
    });
    for (const row of rows) {
      const count = counts.get(row.ticketTypeId)!;
      if (row.state === 'sold') count.sold += row._sum.quantity ?? 0;
      else count.held += row._sum.quantity ?? 0;
    }
    return counts;
  }

  /**
   * 429 rate_limited when the client address would hold more than `maxSeats` unpaid seats at the shop
   * (decision 0024). The address's checkouts at the shop take one transaction-scoped advisory lock in turn,
   * so two at once cannot both pass the count.
   */
  async function refuseOverClientLimit(
    db: Db,
    client: { organizationId: string; address: string; maxSeats: number },
    lines: { quantity: number }[],
    now: Date,
  ) {
    await db.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`tickets:${client.organizationId}:${client.address}`}))`;
    const held = await db.ticketHold.aggregate({
      where: {
        clientAddress: client.address,
        state: 'held',
        expiresAt: { gt: now },
        ticketType: { organizationId: client.organizationId },
      },
      _sum: { quantity: true },
    });
    const heldSeats = held._sum.quantity ?? 0;
    const asked = lines.reduce((sum, line) => sum + line.quantity, 0);
    if (heldSeats + asked > client.maxSeats) {
      throw new AppError(
        'rate_limited',
        `This address holds ${heldSeats} unpaid seats here already; one address holds at most ${client.maxSeats} at once. Pay or let a checkout expire first.`,
        { held_seats: heldSeats, max_seats: client.maxSeats },
      );
    }
  }

  async function catalogOf(db: Db, organizationId: string, where: Prisma.TicketEventWhereInput = {}): Promise<EventWithTypes[]> {
    return db.ticketEvent.findMany({
      where: { organizationId, removedAt: null, ...where },
      orderBy: [{ position: 'asc' }],
      include: { ticketTypes: { where: { removedAt: null }, orderBy: [{ position: 'asc' }] } },
    });
  }

  return {
    seatCounts: (typeIds: string[], now: Date) => seatCounts(prisma, typeIds, now),

    /** The events (not removed) in catalog order; `endingAfter`: only those that end after it. */
    catalog(organizationId: string, endingAfter?: Date): Promise<EventWithTypes[]> {
      return catalogOf(prisma, organizationId, endingAfter ? { endsAt: { gt: endingAfter } } : {});
    },

    /** The types of the organisation (not removed), with their event. */
    types(organizationId: string, ids: string[]) {
      return prisma.ticketType.findMany({ where: { organizationId, id: { in: ids }, removedAt: null }, include: { event: true } });
    },

    /**
     * Replaces the catalog as a whole in one transaction, the organisation's types locked. `check` sees
     * the current catalog and the seats each type has taken, and throws to refuse the replacement.
     * Replacements of one catalog queue in this process, so that none waits for another's locks inside
     * its transaction (where Prisma's timeout runs, whatever the load); one that loses a race with
     * another process's (a conflict, or a transaction that could not start or finish in time) runs again.
     */
    async replaceCatalog(
      organizationId: string,
      events: CatalogEventInput[],
      now: Date,
      check: (current: EventWithTypes[], counts: Map<string, SeatCounts>) => void,
    ): Promise<EventWithTypes[]> {
      const replace = () =>
        prisma.$transaction(
          async (tx) => {
            const current = await catalogOf(tx, organizationId);
            const typeIds = current.flatMap((event) => event.ticketTypes.map((type) => type.id));
            await lockTypes(tx, typeIds);
            check(current, await seatCounts(tx, typeIds, now));
            const keptEvents = new Set(events.map((event) => event.id).filter(Boolean));
            const keptTypes = new Set(events.flatMap((event) => event.ticketTypes.map((type) => type.id)).filter(Boolean));
            await tx.ticketType.updateMany({
              where: { organizationId, removedAt: null, id: { notIn: [...keptTypes] as string[] } },
              data: { removedAt: now, updatedAt: now },
            });
            await tx.ticketEvent.updateMany({
              where: { organizationId, removedAt: null, id: { notIn: [...keptEvents] as string[] } },
              data: { removedAt: now, updatedAt: now },
            });
            for (const [position, event] of events.entries()) {
              const fields = {
                name: event.name,
                venue: event.venue,
                startsAt: event.startsAt,
                endsAt: event.endsAt,
                position,
                updatedAt: now,
              };
              const eventId = event.id
                ? (await tx.ticketEvent.update({ where: { id: event.id }, data: fields })).id
                : (await tx.ticketEvent.create({ data: { ...fields, organizationId, createdAt: now } })).id;
              for (const [typePosition, type] of event.ticketTypes.entries()) {
                const typeFields = {
                  name: type.name,
                  priceMinor: type.priceMinor,
                  currency: type.currency,
                  capacity: type.capacity,
                  position: typePosition,
                  updatedAt: now,
                };
                if (type.id) await tx.ticketType.update({ where: { id: type.id }, data: typeFields });
                else await tx.ticketType.create({ data: { ...typeFields, organizationId, eventId, createdAt: now } });
              }
            }
            return catalogOf(tx, organizationId);
          },
          // Only another process's replacement or a checkout can hold the types' locks: a margin for those under load.
          { maxWait: 20_000, timeout: 20_000 },
        );
      return oneReplacement(organizationId, () => retryLostRace(replace));
    },

    /**
     * Takes the seats of each line with the types locked, or none: a type with fewer seats left than its
     * line asks is `sold_out` naming the line. The holds belong to no checkout yet and end at `expiresAt`.
     * Seats already gone are refused before any lock (as if the buyer came a moment earlier: what is left
     * is decided under the lock); holds of one organisation's types queue in this process, so that
     * a crowd at the last seats never waits for locks inside a transaction nor for pooled connections
     * (a 503 under load); one that loses to another process runs again.
     */
    async hold(
      lines: { type: TicketType & { event: TicketEvent }; quantity: number; field: string }[],
      now: Date,
      expiresAt: Date,
      client?: { organizationId: string; address: string; maxSeats: number },
    ): Promise<TicketHold[]> {
      const ids = lines.map((line) => line.type.id);
      const refuseGone = (fresh: Map<string, TicketType>, counts: Map<string, SeatCounts>) => {
        for (const line of lines) {
          const type = fresh.get(line.type.id);
          const count = counts.get(line.type.id)!;
          const available = type && !type.removedAt ? Math.max(0, type.capacity - count.sold - count.held) : 0;
          if (available < line.quantity) {
            throw new AppError('sold_out', `Only ${available} "${line.type.name}" tickets are left`, { field: line.field, available });
          }
        }
      };
      const typesOf = async (db: Db) =>
        new Map((await db.ticketType.findMany({ where: { id: { in: ids } } })).map((type) => [type.id, type]));
      refuseGone(await typesOf(prisma), await seatCounts(prisma, ids, now));
      const take = () =>
        prisma.$transaction(async (tx) => {
          if (client) await refuseOverClientLimit(tx, client, lines, now);
          await lockTypes(tx, ids);
          refuseGone(await typesOf(tx), await seatCounts(tx, ids, now));
          const holds: TicketHold[] = [];
          for (const [position, line] of lines.entries()) {
            holds.push(
              await tx.ticketHold.create({
                data: {
                  ticketTypeId: line.type.id,
                  quantity: line.quantity,
                  unitPriceMinor: line.type.priceMinor,
                  eventName: line.type.event.name,
                  typeName: line.type.name,
                  position,
                  clientAddress: client?.address ?? null,
                  expiresAt,
                  createdAt: now,
                  updatedAt: now,
                },
              }),
            );
          }
          return holds;
        });
      return oneHold(lines[0]!.type.organizationId, async () => {
        // The holds queued before this one may have taken the seats: a read tells at a fraction of a transaction's cost.
        refuseGone(await typesOf(prisma), await seatCounts(prisma, ids, now));
        return retryLostRace(take);
      });
    },

    /** The holds now belong to the checkout and end when its order expires. */
    async attach(holdIds: string[], checkoutId: string, expiresAt: Date, now: Date) {
      await prisma.ticketHold.updateMany({ where: { id: { in: holdIds } }, data: { checkoutId, expiresAt, updatedAt: now } });
    },

    /** Gives the seats back (the checkout expired or was cancelled, or could not be opened). */
    async release(where: { holdIds: string[] } | { checkoutId: string }, now: Date) {
      const holds = 'holdIds' in where ? { id: { in: where.holdIds } } : { checkoutId: where.checkoutId };
      await prisma.ticketHold.updateMany({ where: { ...holds, state: 'held' }, data: { state: 'released', updatedAt: now } });
    },

    /**
     * The checkout is paid: each of its holds still held (or released by an expiry before a late payment)
     * becomes sold, and issues its tickets. A hold past its expiry is sold only if its seats are still
     * free (the type locked); otherwise it is `unfulfilled` (the merchant refunds). Once per checkout:
     * the checkout's row is locked, and holds already sold are left as they are.
     */
    async sell(checkoutId: string, organizationId: string, now: Date) {
      await prisma.$transaction(async (tx) => {
        await tx.$queryRaw`SELECT id FROM checkouts WHERE id = ${checkoutId}::uuid FOR UPDATE`;
        const open = await tx.ticketHold.findMany({
          where: { checkoutId, state: { in: ['held', 'released'] } },
          orderBy: { position: 'asc' },
        });
        if (open.length === 0) return;
        await lockTypes(
          tx,
          open.map((hold) => hold.ticketTypeId),
        );
        for (const hold of open) {
          let sold = hold.state === 'held' && hold.expiresAt > now;
          if (!sold) {
            const type = await tx.ticketType.findUniqueOrThrow({ where: { id: hold.ticketTypeId } });
            const count = (await seatCounts(tx, [hold.ticketTypeId], now)).get(hold.ticketTypeId)!;
            sold = type.capacity - count.sold - count.held >= hold.quantity;
          }
          await tx.ticketHold.update({ where: { id: hold.id }, data: { state: sold ? 'sold' : 'unfulfilled', updatedAt: now } });
          if (!sold) continue;
          await tx.ticket.createMany({
            data: Array.from({ length: hold.quantity }, () => ({
              organizationId,
              checkoutId,
              ticketTypeId: hold.ticketTypeId,
              code: newTicketCode(),
              createdAt: now,
            })),
          });
        }
      });
    },

    holdsOf(checkoutId: string): Promise<TicketHold[]> {
      return prisma.ticketHold.findMany({ where: { checkoutId }, orderBy: { position: 'asc' } });
    },

    ticketsOf(checkoutId: string): Promise<TicketWithNames[]> {
      return prisma.ticket.findMany({
        where: { checkoutId },
        orderBy: [{ createdAt: 'asc' }, { code: 'asc' }],
        include: { ticketType: { include: { event: true } } },
      });
    },

    /** The organisation's ticket checkouts, newest first, after the cursor's position. */
    orders(organizationId: string, after: { at: Date; id: string } | undefined, take: number) {
      return prisma.checkout.findMany({
        where: {
          organizationId,
          kind: 'tickets',
          ...(after ? { OR: [{ createdAt: { lt: after.at } }, { createdAt: after.at, id: { lt: after.id } }] } : {}),
        },
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
        take,
        include: {
          ticketHolds: { orderBy: { position: 'asc' } },
          tickets: { orderBy: [{ createdAt: 'asc' }, { code: 'asc' }], include: { ticketType: { include: { event: true } } } },
        },
      });
    },

    /** Checks the ticket in if it was not: true for the one call that did. */
    async checkIn(organizationId: string, code: string, now: Date): Promise<boolean> {
      const { count } = await prisma.ticket.updateMany({ where: { organizationId, code, checkedInAt: null }, data: { checkedInAt: now } });
      return count === 1;
    },

    async exists(code: string): Promise<boolean> {
      return (await prisma.ticket.count({ where: { code } })) > 0;
    },

    ticketByCode(organizationId: string, code: string): Promise<TicketWithNames | null> {
      return prisma.ticket.findFirst({ where: { organizationId, code }, include: { ticketType: { include: { event: true } } } });
    },
  };
}
