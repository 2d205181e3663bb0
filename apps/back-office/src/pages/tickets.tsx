import { useEffect, useState } from 'preact/hooks';
import { api, type Page } from '../api.js';
import { describe, Field, Problem, Refusal, useSubmit } from '../form.js';
import { formatDateTime, formatMoney, minorUnits } from '../format.js';

type TicketType = {
  id: string;
  name: string;
  price_minor: number;
  currency: string;
  capacity: number;
  sold: number;
  held: number;
  available: number;
};
type TicketEvent = { id: string; name: string; starts_at: string; ends_at: string; venue: string; ticket_types: TicketType[] };
type Ticket = { code: string; event_name: string; ticket_type_name: string; qr_url: string; checked_in_at: string | null };
type TicketOrder = {
  id: string;
  order_number: string;
  status: string;
  hold: string;
  currency: string;
  total_minor: number;
  lines: { event_name: string; ticket_type_name: string; quantity: number }[];
  tickets: Ticket[];
  created_at: string;
};

/**
 * `/o/:handle/commerce-api`: selling online. The Buy button is in Settings; here are the shop's events and
 * their ticket types (the catalog is replaced as a whole: what is shown is sent back, so nothing sold is
 * lost), the ticket orders with their tickets, and checking a ticket in at the door by its code.
 */
export function TicketsPage({ handle }: { handle: string }) {
  const [events, setEvents] = useState<TicketEvent[] | null>(null);
  const [orders, setOrders] = useState<TicketOrder[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const load = () =>
    Promise.all([
      api<{ events: TicketEvent[] }>(`/api/v1/orgs/${handle}/tickets/catalog`).then((catalog) => setEvents(catalog.events)),
      api<Page<TicketOrder>>(`/api/v1/orgs/${handle}/tickets/orders?limit=100`).then((page) => setOrders(page.data)),
    ]).catch((error) => setProblem(describe(error)));
  useEffect(() => void load(), [handle]);
  return (
    <>
      <h1>Commerce API: online sales and tickets</h1>
      <p>
        Sell an item from your own website with the Buy button: its snippet is in <a href="/settings">Settings</a>. Sell tickets to your
        events here: each ticket is a code the buyer shows as a QR code, checked in once at the door.
      </p>
      <Problem problem={problem} />
      <CheckIn handle={handle} onCheckedIn={load} />
      <section aria-labelledby="events">
        <h2 id="events">Events</h2>
        {events?.length === 0 && <p>No events yet.</p>}
        <ul class="entries">
          {events?.map((event) => (
            <li class="card" key={event.id}>
              <h3>{event.name}</h3>
              <p>
                {formatDateTime(event.starts_at)} to {formatDateTime(event.ends_at)}
                {event.venue && ` · ${event.venue}`}
              </p>
              <table class="lines">
                <caption class="visually-hidden">Ticket types of {event.name}</caption>
                <thead>
                  <tr>
                    <th scope="col">Ticket</th>
                    <th scope="col">Price</th>
                    <th scope="col">Sold</th>
                    <th scope="col">Held</th>
                    <th scope="col">Left</th>
                  </tr>
                </thead>
                <tbody>
                  {event.ticket_types.map((type) => (
                    <tr key={type.id}>
                      <th scope="row">{type.name}</th>
                      <td>{formatMoney(type.price_minor, type.currency)}</td>
                      <td>{type.sold}</td>
                      <td>{type.held}</td>
                      <td>
                        {type.available} of {type.capacity}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </li>
          ))}
        </ul>
        {events && <NewEvent handle={handle} events={events} onAdded={setEvents} />}
      </section>
      <section aria-labelledby="ticket-orders">
        <h2 id="ticket-orders">Ticket orders</h2>
        {orders.length === 0 && <p>No ticket orders yet.</p>}
        <ul class="entries">
          {orders.map((order) => (
            <li class="card" key={order.id}>
              <h3>
                Order {order.order_number} <span class="tag">{order.status}</span>
              </h3>
              <p>
                {order.lines.map((line) => `${line.quantity} × ${line.ticket_type_name}, ${line.event_name}`).join('; ')} ·{' '}
                {formatMoney(order.total_minor, order.currency)} · {formatDateTime(order.created_at)}
              </p>
              {order.tickets.length > 0 && (
                <ul>
                  {order.tickets.map((ticket) => (
                    <li key={ticket.code}>
                      <span class="txid">{ticket.code}</span> ·{' '}
                      {ticket.checked_in_at ? `checked in ${formatDateTime(ticket.checked_in_at)}` : 'not checked in'}
                    </li>
                  ))}
                </ul>
              )}
            </li>
          ))}
        </ul>
      </section>
    </>
  );
}

/** The door: a ticket's code (typed, or read from its QR code by a scanner that types) checked in once. */
function CheckIn({ handle, onCheckedIn }: { handle: string; onCheckedIn: () => void }) {
  const [done, setDone] = useState<string | null>(null);
  const { submit, busy, problem } = useSubmit(async (form) => {
    setDone(null);
    const ticket = await api<Ticket>(`/api/v1/orgs/${handle}/tickets/check-in`, {
      method: 'POST',
      body: { code: String(form.get('code') ?? '').trim() },
    });
    setDone(`Checked in: ${ticket.ticket_type_name}, ${ticket.event_name}.`);
    (document.getElementById('check-in') as HTMLFormElement | null)?.reset();
    onCheckedIn();
  });
  return (
    <section class="card" aria-labelledby="door">
      <h2 id="door">At the door</h2>
      <form id="check-in" onSubmit={submit} noValidate>
        <Field label="Ticket code" name="code" required autoComplete="off" hint="The 20 characters under the ticket's QR code." />
        <Problem problem={problem} />
        <p role="status">{done ?? ''}</p>
        <button type="submit" disabled={busy}>
          Check in
        </button>
      </form>
    </section>
  );
}

/** A new event with its first ticket type, added to the catalog as it stands (every event and type sent back, so each keeps its sales). */
function NewEvent({ handle, events, onAdded }: { handle: string; events: TicketEvent[]; onAdded: (events: TicketEvent[]) => void }) {
  const { submit, busy, problem } = useSubmit(async (form) => {
    const text = (name: string) => String(form.get(name) ?? '').trim();
    const moment = (name: string) => {
      const value = text(name);
      if (!value) throw new Refusal('Give the event its start and its end.');
      return new Date(value).toISOString();
    };
    const kept = events.map((event) => ({
      id: event.id,
      name: event.name,
      starts_at: event.starts_at,
      ends_at: event.ends_at,
      venue: event.venue,
      ticket_types: event.ticket_types.map(({ id, name, price_minor, currency, capacity }) => ({
        id,
        name,
        price_minor,
        currency,
        capacity,
      })),
    }));
    const added = {
      name: text('event_name'),
      starts_at: moment('starts_at'),
      ends_at: moment('ends_at'),
      venue: text('venue'),
      ticket_types: [
        {
          name: text('type_name'),
          price_minor: minorUnits(text('price')),
          currency: text('currency').toUpperCase(),
          capacity: Number(text('capacity')),
        },
      ],
    };
    const answer = await api<{ events: TicketEvent[] }>(`/api/v1/orgs/${handle}/tickets/catalog`, {
      method: 'PUT',
      body: { events: [...kept, added] },
    });
    (document.getElementById('new-event') as HTMLFormElement | null)?.reset();
    onAdded(answer.events);
  });
  return (
    <section class="card" aria-labelledby="new-event-title">
      <h3 id="new-event-title">Add an event</h3>
      <form id="new-event" onSubmit={submit} noValidate>
        <Field label="Event" name="event_name" required maxLength={100} autoComplete="off" hint="e.g. Jazz night" />
        <div class="range">
          <Field label="Starts" name="starts_at" type="datetime-local" required />
          <Field label="Ends" name="ends_at" type="datetime-local" required />
        </div>
        <Field label="Venue" name="venue" maxLength={200} autoComplete="off" />
        <Field label="Ticket type" name="type_name" required maxLength={60} defaultValue="General admission" autoComplete="off" />
        <div class="range">
          <Field label="Price" name="price" inputMode="decimal" required placeholder="25.00" autoComplete="off" />
          <Field label="Currency" name="currency" required defaultValue="USD" maxLength={3} autoComplete="off" />
        </div>
        <Field label="Tickets for sale" name="capacity" type="number" min={1} required autoComplete="off" />
        <Problem problem={problem} />
        <button type="submit" disabled={busy}>
          Add the event
        </button>
      </form>
    </section>
  );
}
