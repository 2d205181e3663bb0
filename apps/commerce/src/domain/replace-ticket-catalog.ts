import type { OrgRef } from '@ctk/proto/ctk/common/v1/common';
import { AppError, lineOfText, orgOf, validate } from '@ctk/shared';
import { z } from 'zod';
import type { CatalogEventInput, EventWithTypes, SeatCounts } from '../data/ticket-repository.js';
import type { PosClient } from '../pos-client.js';
import type { TicketContext } from '../tickets/ticket-context.js';

export const MAX_EVENTS = 50;
export const MAX_TYPES_PER_EVENT = 20;
export const MAX_CAPACITY = 1_000_000;
const MAX_PRICE = 1_000_000_000_000n;

const optionalId = z.union([z.literal(''), z.guid('must be an id this catalog answered (a UUID), or empty for a new one')]);
const time = z.iso.datetime({ offset: true, error: 'must be an RFC 3339 date and time, e.g. 2026-06-12T19:00:00Z' });

const ticketTypeSchema = z.object({
  id: optionalId,
  name: lineOfText('name', 60).pipe(z.string().min(1, 'name is required')),
  priceMinor: z.bigint().min(1n, 'price_minor must be at least 1').max(MAX_PRICE, `price_minor must be at most ${MAX_PRICE}`),
  currency: z.string().regex(/^[A-Z]{3}$/, 'currency must be an ISO 4217 code such as "USD"'),
  capacity: z.number().int().min(0, 'capacity must be 0 or more').max(MAX_CAPACITY, `capacity must be at most ${MAX_CAPACITY}`),
});

const eventSchema = z
  .object({
    id: optionalId,
    name: lineOfText('name', 100).pipe(z.string().min(1, 'name is required')),
    startsAt: time,
    endsAt: time,
    venue: lineOfText('venue', 200),
    ticketTypes: z
      .array(ticketTypeSchema)
      .min(1, 'an event needs at least one ticket type')
      .max(MAX_TYPES_PER_EVENT, `an event takes at most ${MAX_TYPES_PER_EVENT} ticket types`),
  })
  .superRefine((event, ctx) => {
    if (Date.parse(event.endsAt) <= Date.parse(event.startsAt)) {
      ctx.addIssue({ code: 'custom', path: ['endsAt'], message: 'ends_at must be after starts_at' });
    }
    const names = new Set<string>();
    event.ticketTypes.forEach((type, index) => {
      const key = type.name.toLowerCase();
      if (names.has(key))
        ctx.addIssue({ code: 'custom', path: ['ticketTypes', index, 'name'], message: 'ticket type names differ within an event' });
      names.add(key);
    });
  });

const catalogSchema = z
  .object({ events: z.array(eventSchema).max(MAX_EVENTS, `a ticket catalog takes at most ${MAX_EVENTS} events`) })
  .superRefine((catalog, ctx) => {
    const seen = new Set<string>();
    const once = (id: string, path: (string | number)[]) => {
      if (!id) return;
      if (seen.has(id)) ctx.addIssue({ code: 'custom', path, message: 'an id appears once in the catalog' });
      seen.add(id);
    };
    catalog.events.forEach((event, i) => {
      once(event.id, ['events', i, 'id']);
      event.ticketTypes.forEach((type, j) => once(type.id, ['events', i, 'ticketTypes', j, 'id']));
    });
  });

/**
 * Each currency of the catalog has a satoshi rate at pos, the rule items, pay links and cards are made by:
 * a type in a currency without one is refused now, naming the first such type, rather than at every checkout.
 */
async function requireRates(pos: PosClient, events: readonly z.output<typeof eventSchema>[]): Promise<void> {
  const firstOf = new Map<string, string>();
  events.forEach((event, i) =>
    event.ticketTypes.forEach((type, j) => {
      if (!firstOf.has(type.currency)) firstOf.set(type.currency, `events.${i}.ticket_types.${j}.currency`);
    }),
  );
  for (const [currency, field] of firstOf) {
    await pos.checkCurrencyRate({ currency }).catch((error: unknown) => {
      if (AppError.is(error) && error.code === 'validation_failed') throw new AppError('validation_failed', error.message, { field });
      throw error;
    });
  }
}

/**
 * Replaces the organisation's ticket catalog as a whole (decision 0020). Events and types keep their ids
 * when they are sent back with them; one left out is removed. A type with tickets sold or seats held
 * cannot be removed, nor its capacity lowered below them: `failed_precondition` naming the place, and
 * nothing changes. The check and the write run with the types locked, so no checkout slips between.
 */
export async function replaceTicketCatalog(
  context: TicketContext,
  orgRef: OrgRef | undefined,
  input: z.input<typeof catalogSchema>,
): Promise<{ events: EventWithTypes[]; counts: Map<string, SeatCounts> }> {
  const org = orgOf(orgRef);
  const { events } = validate(catalogSchema, input);
  await requireRates(context.pos, events);
  const now = context.now();
  const check = (current: EventWithTypes[], counts: Map<string, SeatCounts>) => {
    const currentEvents = new Map(current.map((event) => [event.id, event]));
    const currentTypes = new Map(current.flatMap((event) => event.ticketTypes.map((type) => [type.id, type])));
    const kept = new Set<string>();
    events.forEach((event, i) => {
      if (event.id && !currentEvents.has(event.id))
        throw new AppError('validation_failed', 'No event with this id in the catalog', { field: `events.${i}.id` });
      event.ticketTypes.forEach((type, j) => {
        const field = `events.${i}.ticket_types.${j}`;
        if (!type.id) return;
        const existing = currentTypes.get(type.id);
        if (!existing || existing.eventId !== event.id)
          throw new AppError('validation_failed', 'No ticket type with this id in this event of the catalog', { field: `${field}.id` });
        kept.add(type.id);
        const { sold, held } = counts.get(type.id)!;
        if (type.capacity < sold + held) {
          throw new AppError(
            'failed_precondition',
            `"${existing.name}" has ${sold} tickets sold and ${held} held: its capacity cannot be lower than ${sold + held}`,
            { field: `${field}.capacity`, sold, held },
          );
        }
      });
    });
    for (const [id, type] of currentTypes) {
      const { sold, held } = counts.get(id)!;
      if (kept.has(id) || sold + held === 0) continue;
      throw new AppError(
        'failed_precondition',
        `"${type.name}" (${id}) has ${sold} tickets sold and ${held} held: it cannot be removed (set its capacity to ${sold + held} to stop selling it)`,
        { field: 'events', ticket_type_id: id, sold, held },
      );
    }
  };
  const replacement: CatalogEventInput[] = events.map((event) => ({
    id: event.id || null,
    name: event.name,
    venue: event.venue,
    startsAt: new Date(event.startsAt),
    endsAt: new Date(event.endsAt),
    ticketTypes: event.ticketTypes.map((type) => ({ ...type, id: type.id || null })),
  }));
  const stored = await context.tickets.replaceCatalog(org.id, replacement, now, check);
  const counts = await context.tickets.seatCounts(
    stored.flatMap((event) => event.ticketTypes.map((type) => type.id)),
    now,
  );
  return { events: stored, counts };
}
