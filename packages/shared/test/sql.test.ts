import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { isUniqueViolation, isWriteConflict } from '../src/db/prisma-errors.js';
import { prismaQueries, writeTogether } from '../src/db/sql.js';
import { enqueueOutboxEvent, outboxInsert } from '../src/events/outbox.js';
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
    const [event] = await db.sql.rows('SELECT * FROM outbox_events WHERE id = $1', ['event-1']);
    expect(event).toEqual(await db.prisma.outboxEvent.findUnique({ where: { id: 'event-1' } }));
    expect(event).toMatchObject({ payload: Uint8Array.of(1) });
    expect(event).toMatchObject({ createdAt: expect.any(Date), sentAt: null, attempts: 2, lastError: null });
  });

  it('binds each argument in order with its type, and answers no row as none', async () => {
    const at = new Date('2026-12-01T10:20:30.456Z');
    const rows = await db.sql.rows<Record<string, unknown>>(
      `SELECT $1::text AS some_text, $2::bigint AS big, $3::timestamp(3) AS at, $4::boolean AS yes, $5::int AS small,
              '{"lines": [1, 2]}'::jsonb AS lines, 'a7f3c1d2-0b4e-4c5a-9d8e-112233445566'::uuid AS id, NULL::bigint AS nothing,
              ARRAY['overpaid', 'a,"b}']::text[] AS flags, '{}'::text[] AS none`,
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
        flags: ['overpaid', 'a,"b}'],
        none: [],
      },
    ]);
    expect(await db.sql.rows('SELECT * FROM orders WHERE id = $1', ['none'])).toEqual([]);
    await db.prisma.order.createMany({ data: ['a', 'b', 'c'].map((id) => ({ id, totalMinor: 1n })) });
    const listed = await db.sql.rows('SELECT id FROM orders WHERE id = ANY($1::text[]) ORDER BY id', [['c', 'a', 'x,{"}']]);
    expect(listed).toEqual([{ id: 'a' }, { id: 'c' }]);
  });

  it('commits a transaction’s statements together, and leaves none of them when its work throws', async () => {
    const insert = 'INSERT INTO orders (id, total_minor) VALUES ($1, $2) RETURNING id';
    const kept = await db.sql.transaction(async (tx) => {
      await tx.rows(insert, ['kept-1', 1n]);
      return tx.rows<{ id: string }>(insert, ['kept-2', 2n]);
    });
    expect(kept).toEqual([{ id: 'kept-2' }]);
    const failed = db.sql.transaction(async (tx) => {
      await tx.rows(insert, ['lost-1', 3n]);
      throw new Error('the work failed');
    });
    await expect(failed).rejects.toThrow('the work failed');
    // A statement refused by the database rolls back the transaction's earlier ones too.
    await expect(
      db.sql.transaction(async (tx) => tx.rows(insert, ['lost-2', 4n]).then(() => tx.rows(insert, ['kept-1', 5n]))),
    ).rejects.toThrow();
    expect((await db.prisma.order.findMany({ orderBy: { id: 'asc' } })).map((order) => order.id)).toEqual(['kept-1', 'kept-2']);
  });

  it('writes an outbox event in its transaction as in a Prisma one, the payload’s bytes bound as they are', async () => {
    const payload = Uint8Array.of(0, 1, 0xff, 0x5c, 0x27);
    await db.sql.transaction((tx) => enqueueOutboxEvent(tx, { id: 'event-sql', subject: 'ctk.orders.changed', payload }));
    await db.prisma.$transaction((tx) => enqueueOutboxEvent(tx, { id: 'event-prisma', subject: 'ctk.orders.changed', payload }));
    const written = await db.prisma.outboxEvent.findMany({ orderBy: { id: 'asc' } });
    expect(written.map((event) => [event.id, event.payload])).toEqual([
      ['event-prisma', payload],
      ['event-sql', payload],
    ]);
    // Rolled back with the transaction's work.
    const failed = db.sql.transaction(async (tx) => {
      await enqueueOutboxEvent(tx, { id: 'event-lost', subject: 'ctk.orders.changed', payload });
      throw new Error('the work failed');
    });
    await expect(failed).rejects.toThrow('the work failed');
    expect(await db.prisma.outboxEvent.count()).toBe(2);
  });

  it('sends writes together as one statement, answering what each wrote, and rolls all back with the transaction', async () => {
    await db.prisma.order.createMany({ data: [{ id: 'old', totalMinor: 1n }] });
    const payload = Uint8Array.of(0, 0xff, 0x27);
    const writes = [
      { text: 'INSERT INTO orders (id, total_minor) VALUES ($1, $2::bigint)', args: ['new', 2n ** 62n] },
      { text: 'UPDATE orders SET total_minor = total_minor + $2::bigint WHERE id = $1', args: ['old', 10n] },
      { text: 'UPDATE orders SET total_minor = 0 WHERE id = $1', args: ['none'] },
      outboxInsert({ id: 'event-together', subject: 'ctk.orders.changed', payload }),
    ];
    expect(await db.sql.transaction((tx) => writeTogether(tx, writes))).toEqual([1, 1, 0, 1]);
    expect(await db.prisma.order.findMany({ orderBy: { id: 'asc' } })).toEqual([
      { id: 'new', totalMinor: 2n ** 62n },
      { id: 'old', totalMinor: 11n },
    ]);
    expect((await db.prisma.outboxEvent.findUnique({ where: { id: 'event-together' } }))?.payload).toEqual(payload);
    // On a Prisma transaction's raw queries alike; and nothing of them stays when the transaction fails.
    const failed = db.prisma.$transaction(async (tx) => {
      expect(await writeTogether(prismaQueries(tx), [{ text: 'DELETE FROM orders WHERE id = $1', args: ['old'] }])).toEqual([1]);
      throw new Error('the work failed');
    });
    await expect(failed).rejects.toThrow('the work failed');
    // One write refused (a second row of one id) refuses them all.
    await expect(db.sql.transaction((tx) => writeTogether(tx, [writes[1]!, writes[0]!]))).rejects.toSatisfy(isUniqueViolation);
    expect((await db.prisma.order.findMany({ orderBy: { id: 'asc' } })).map((order) => [order.id, order.totalMinor])).toEqual([
      ['new', 2n ** 62n],
      ['old', 11n],
    ]);
    expect(await writeTogether(db.sql, [])).toEqual([]);
  });

  it('reads through a Prisma transaction’s raw queries as it reads on its own', async () => {
    await db.prisma.order.create({ data: { id: 'order-2', totalMinor: 12n } });
    const [read] = await db.prisma.$transaction((tx) => prismaQueries(tx).rows('SELECT * FROM orders WHERE id = $1', ['order-2']));
    expect(read).toEqual((await db.sql.rows('SELECT * FROM orders WHERE id = $1', ['order-2']))[0]);
    expect(read).toEqual({ id: 'order-2', totalMinor: 12n });
  });

  it('fails a statement a unique constraint refuses as isUniqueViolation tells, on its own and in a Prisma transaction', async () => {
    const insert = 'INSERT INTO orders (id, total_minor) VALUES ($1, $2)';
    await db.sql.rows(insert, ['taken', 1n]);
    const refused = (work: Promise<unknown>) =>
      work.then(
        () => 'inserted',
        (error: unknown) => isUniqueViolation(error),
      );
    expect(await refused(db.sql.rows(insert, ['taken', 2n]))).toBe(true);
    expect(await refused(db.sql.transaction((tx) => tx.rows(insert, ['taken', 3n])))).toBe(true);
    expect(await refused(db.prisma.$transaction((tx) => prismaQueries(tx).rows(insert, ['taken', 4n])))).toBe(true);
    // Another refusal is not one.
    expect(await refused(db.sql.rows(insert, [null, 5n]))).toBe(false);
  });

  it('fails a transaction that lost a race (deadlock, serialization) as isWriteConflict tells, so that it is retried', async () => {
    const lost = (code: string) =>
      db.sql
        .transaction((tx) => tx.rows(`DO $$ BEGIN RAISE EXCEPTION 'lost' USING ERRCODE = '${code}'; END $$`, []))
        .then(
          () => 'committed',
          (error: unknown) => isWriteConflict(error),
        );
    expect(await lost('40P01')).toBe(true);
    expect(await lost('40001')).toBe(true);
    // Another failure is not one.
    expect(await lost('23505')).toBe(false);
    expect(await lost('P0001')).toBe(false);
  });

  it('fails a transaction whose deferred constraint fails at the commit, and keeps nothing of it', async () => {
    await db.sql.rows('CREATE TABLE IF NOT EXISTS deferred_keys (key text UNIQUE DEFERRABLE INITIALLY DEFERRED)', []);
    await db.sql.rows('DELETE FROM deferred_keys', []);
    const insert = 'INSERT INTO orders (id, total_minor) VALUES ($1, $2)';
    const committed = db.sql.transaction(async (tx) => {
      await tx.rows(insert, ['kept-only-if-committed', 1n]);
      // Both inserts pass until the commit checks the deferred constraint.
      await tx.rows("INSERT INTO deferred_keys VALUES ('twice'), ('twice')", []);
    });
    await expect(committed).rejects.toSatisfy(isUniqueViolation);
    expect(await db.sql.rows('SELECT id FROM orders WHERE id = $1', ['kept-only-if-committed'])).toEqual([]);
    expect(await db.sql.rows('SELECT key FROM deferred_keys', [])).toEqual([]);
  });

  it('reads after a transaction’s commit what it wrote, and sends nothing of the read when the commit fails', async () => {
    await db.sql.rows('CREATE TABLE IF NOT EXISTS deferred_keys (key text UNIQUE DEFERRABLE INITIALLY DEFERRED)', []);
    await db.sql.rows('DELETE FROM deferred_keys', []);
    const insert = 'INSERT INTO orders (id, total_minor) VALUES ($1, $2)';
    const { result, rows } = await db.sql.transactionThenRead(
      async (tx) => {
        await tx.rows(insert, ['read-after', 7n]);
        return 'read-after';
      },
      (id) => ({ text: 'SELECT id, total_minor FROM orders WHERE id = $1', args: [id] }),
    );
    expect({ result, rows }).toEqual({ result: 'read-after', rows: [{ id: 'read-after', totalMinor: 7n }] });
    // The commit fails at its deferred constraint: the write meant to follow it is not made.
    const failed = db.sql.transactionThenRead(
      async (tx) => {
        await tx.rows("INSERT INTO deferred_keys VALUES ('twice'), ('twice')", []);
      },
      () => ({ text: 'INSERT INTO orders (id, total_minor) VALUES ($1, $2) RETURNING id', args: ['after-failed-commit', 1n] }),
    );
    await expect(failed).rejects.toSatisfy(isUniqueViolation);
    expect(await db.sql.rows('SELECT id FROM orders ORDER BY id', [])).toEqual([{ id: 'read-after' }]);
    // No read: the transaction alone.
    expect(
      await db.sql.transactionThenRead(
        async () => 1,
        () => undefined,
      ),
    ).toEqual({ result: 1, rows: [] });
  });

  it('runs a transaction’s statements on generic plans when asked (PostgreSQL), for that transaction alone', async () => {
    const mode = "SELECT current_setting('plan_cache_mode') AS mode";
    const inside = await db.sql.transaction((tx) => tx.rows<{ mode: string }>(mode, []), { genericPlans: true });
    // PGlite plans each statement as it comes: there is nothing to keep.
    expect(inside).toEqual([{ mode: db.kind === 'postgres' ? 'force_generic_plan' : 'auto' }]);
    expect(await db.sql.transaction((tx) => tx.rows(mode, []))).toEqual([{ mode: 'auto' }]);
    const { rows } = await db.sql.transactionThenRead(
      async (tx) => tx.rows<{ mode: string }>(mode, []),
      () => ({ text: mode, args: [] }),
      { genericPlans: true },
    );
    expect(rows).toEqual([{ mode: 'auto' }]);
  });

  it('refuses a column it would answer otherwise than Prisma (numeric), naming it', async () => {
    await expect(db.sql.rows('SELECT 1.5::numeric AS price', [])).rejects.toThrow(/column price .*read it through Prisma/);
  });
});
