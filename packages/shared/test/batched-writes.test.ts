import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { batchedWrites } from '../src/db/batched-writes.js';
import { isUniqueViolation } from '../src/db/prisma-errors.js';
import { jsonArg } from '../src/db/sql.js';
import { openOutboxDatabase, type OutboxDatabase } from './fixtures/outbox/database.js';

type Row = { id: string; total_minor: bigint };
type Inserted = { id: string; totalMinor: bigint };

const INSERT = `INSERT INTO orders (id, total_minor) SELECT * FROM json_to_recordset($1::json) AS o(id text, total_minor int8)
  RETURNING id, total_minor`;

/** batchedWrites: rows of requests in flight together in one statement, on PGlite and PostgreSQL alike. */
describe('batchedWrites', () => {
  let db: OutboxDatabase;
  beforeAll(async () => {
    db = await openOutboxDatabase();
  });
  beforeEach(() => db.reset());
  afterAll(() => db?.close());

  /** An insert of orders through batchedWrites, with the number of rows of each statement it sent. */
  function inserter(options?: { inFlight?: number; maxRows?: number }) {
    const statements: number[] = [];
    const insert = batchedWrites(async (rows: Row[]) => {
      statements.push(rows.length);
      const inserted = new Map((await db.sql.rows<Inserted>(INSERT, [jsonArg(rows)])).map((row) => [row.id, row]));
      return rows.map((row) => inserted.get(row.id)!);
    }, options);
    return { insert, statements };
  }

  const order = (index: number): Row => ({ id: `order-${index}`, total_minor: 2n ** 62n + BigInt(index) });

  it('sends a row at once, alone, when no statement is out', async () => {
    const { insert, statements } = inserter();
    expect(await insert(order(1))).toEqual({ id: 'order-1', totalMinor: 2n ** 62n + 1n });
    expect(await insert(order(2))).toEqual({ id: 'order-2', totalMinor: 2n ** 62n + 2n });
    expect(statements).toEqual([1, 1]);
  });

  it('sends the rows that arrive while statements are out in one statement, and answers each caller its own row', async () => {
    const { insert, statements } = inserter({ inFlight: 1 });
    const answers = await Promise.all(Array.from({ length: 20 }, (_, index) => insert(order(index))));
    expect(answers).toEqual(Array.from({ length: 20 }, (_, index) => ({ id: `order-${index}`, totalMinor: 2n ** 62n + BigInt(index) })));
    expect(statements).toEqual([1, 19]);
    expect(await db.prisma.order.count()).toBe(20);
  });

  it('sends again row by row an upsert that two rows of one key fail together (as p2p holds a script twice)', async () => {
    const statements: number[] = [];
    const upsert = batchedWrites(
      async (rows: Row[]) => {
        statements.push(rows.length);
        await db.sql.rows(`${INSERT.split('RETURNING')[0]} ON CONFLICT (id) DO UPDATE SET total_minor = EXCLUDED.total_minor`, [
          jsonArg(rows),
        ]);
        return rows.map(() => undefined);
      },
      { inFlight: 1 },
    );
    const again = (total: bigint) => upsert({ id: 'order-1', total_minor: total });
    await Promise.all([upsert(order(0)), again(5n), again(7n)]);
    // The first alone; the two of one key together, refused ("cannot affect row a second time"); then each alone.
    expect(statements).toEqual([1, 2, 1, 1]);
    expect((await db.prisma.order.findUnique({ where: { id: 'order-1' } }))?.totalMinor).toBe(7n);
  });

  it('fails every row of a statement that failed without the database refusing it, and sends none of them again', async () => {
    const statements: number[] = [];
    // A lost connection: the statement may have committed, so sending its rows again could write them twice.
    let release!: () => void;
    const first = new Promise<void>((resolve) => (release = resolve));
    const write = batchedWrites(
      async (rows: Row[]) => {
        statements.push(rows.length);
        if (rows.length === 1 && rows[0]!.id === 'order-0') await first;
        else throw new Error('Connection terminated unexpectedly');
        return rows.map(() => 'written');
      },
      { inFlight: 1 },
    );
    const answers = Promise.allSettled([0, 1, 2, 3].map((index) => write(order(index))));
    release();
    expect((await answers).map((answer) => (answer.status === 'fulfilled' ? answer.value : (answer.reason as Error).message))).toEqual([
      'written',
      'Connection terminated unexpectedly',
      'Connection terminated unexpectedly',
      'Connection terminated unexpectedly',
    ]);
    expect(statements).toEqual([1, 3]);
  });

  it('writes (jsonArg) a lone surrogate of a string as U+FFFD, as a bound argument is written, and a pair as it is', async () => {
    const written = await db.sql.rows<Inserted>(INSERT, [jsonArg([{ id: 'lone \ud800 \udc00 and 😀', total_minor: 1n }])]);
    expect(written).toEqual([{ id: 'lone \ufffd \ufffd and 😀', totalMinor: 1n }]);
    expect(await db.sql.rows('SELECT $1::text AS id', ['bound \ud800 alone'])).toEqual([{ id: 'bound \ufffd alone' }]);
  });

  it('sends at most maxRows rows in one statement', async () => {
    const { insert, statements } = inserter({ inFlight: 1, maxRows: 8 });
    await Promise.all(Array.from({ length: 20 }, (_, index) => insert(order(index))));
    expect(statements).toEqual([1, 8, 8, 3]);
  });

  it('fails a row by its own error only: a statement that fails is sent again row by row', async () => {
    await db.prisma.order.create({ data: { id: 'order-3', totalMinor: 1n } });
    const { insert, statements } = inserter({ inFlight: 1 });
    const answers = await Promise.allSettled(Array.from({ length: 6 }, (_, index) => insert(order(index))));
    expect(answers.map((answer) => answer.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    expect(isUniqueViolation((answers[3] as PromiseRejectedResult).reason)).toBe(true);
    expect(answers[5]).toEqual({ status: 'fulfilled', value: { id: 'order-5', totalMinor: 2n ** 62n + 5n } });
    // The first alone, then the five together (failed), then each of the five alone.
    expect(statements).toEqual([1, 5, 1, 1, 1, 1, 1]);
    expect((await db.prisma.order.findMany({ orderBy: { id: 'asc' } })).map((row) => [row.id, row.totalMinor])).toEqual([
      ['order-0', 2n ** 62n],
      ['order-1', 2n ** 62n + 1n],
      ['order-2', 2n ** 62n + 2n],
      ['order-3', 1n],
      ['order-4', 2n ** 62n + 4n],
      ['order-5', 2n ** 62n + 5n],
    ]);
  });
});
