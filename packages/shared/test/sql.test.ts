import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openOutboxDatabase, type OutboxDatabase } from './fixtures/outbox/database.js';

/** Sql (decision 0048): what a statement read without Prisma's client answers, on PGlite and PostgreSQL alike. */
describe('Sql', () => {
  let db: OutboxDatabase;
  beforeAll(async () => {
    db = await openOutboxDatabase();
  });
  beforeEach(() => db.reset());
  afterAll(() => db?.close());

  it('answers a row as Prisma answers the model’s record: camelCase names, bigint, Date, null', async () => {
    await db.prisma.order.create({ data: { id: 'order-1', totalMinor: 9_007_199_254_740_993n } });
    await db.prisma.outboxEvent.create({
      data: { id: 'event-1', subject: 'ctk.orders.changed', payload: Uint8Array.of(1), attempts: 2, traceContext: '{"a":1}' },
    });
    const [order] = await db.sql.rows('SELECT * FROM orders WHERE id = $1', ['order-1']);
    expect(order).toEqual(await db.prisma.order.findUnique({ where: { id: 'order-1' } }));
    const columns = 'id, subject, created_at, sent_at, attempts, last_error, trace_context';
    const [event] = await db.sql.rows(`SELECT ${columns} FROM outbox_events WHERE id = $1`, ['event-1']);
    const { payload: _, ...expected } = (await db.prisma.outboxEvent.findUnique({ where: { id: 'event-1' } }))!;
    expect(event).toEqual(expected);
    expect(event).toMatchObject({ createdAt: expect.any(Date), sentAt: null, attempts: 2, lastError: null });
  });

  it('binds each argument in order with its type, and answers no row as none', async () => {
    const at = new Date('2026-12-01T10:20:30.456Z');
    const rows = await db.sql.rows<Record<string, unknown>>(
      `SELECT $1::text AS some_text, $2::bigint AS big, $3::timestamp(3) AS at, $4::boolean AS yes, $5::int AS small,
              '{"lines": [1, 2]}'::jsonb AS lines, 'a7f3c1d2-0b4e-4c5a-9d8e-112233445566'::uuid AS id, NULL::bigint AS nothing`,
      ['café\n«»', 2n ** 62n, at, true, 7],
    );
    expect(rows).toEqual([
      {
        someText: 'café\n«»',
        big: 2n ** 62n,
        at,
        yes: true,
        small: 7,
        lines: { lines: [1, 2] },
        id: 'a7f3c1d2-0b4e-4c5a-9d8e-112233445566',
        nothing: null,
      },
    ]);
    expect(await db.sql.rows('SELECT * FROM orders WHERE id = $1', ['none'])).toEqual([]);
  });

  it('refuses a column it would answer otherwise than Prisma (numeric, bytes), naming it', async () => {
    await expect(db.sql.rows('SELECT 1.5::numeric AS price', [])).rejects.toThrow(/column price .*read it through Prisma/);
    await expect(db.sql.rows("SELECT '\\x01'::bytea AS payload", [])).rejects.toThrow(/column payload/);
  });
});
