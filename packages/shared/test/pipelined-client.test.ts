import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AFTER_COMMIT, pipelinedClient } from '../src/db/pipelined-client.js';
import { createTestDatabase } from '../src/testing/test-database.js';

/** How many answers (ReadyForQuery) the server sent a client: one a round trip. */
function roundTrips(client: pg.PoolClient): () => number {
  let count = 0;
  (client as unknown as { connection: { on(event: string, listener: () => void): void } }).connection.on('readyForQuery', () => {
    count += 1;
  });
  return () => count;
}

/** Whether the client is in a transaction block: two statements then share one transaction id. */
async function inTransaction(client: pg.PoolClient): Promise<boolean> {
  const id = async () => (await client.query<{ id: string }>({ name: 'xact', text: 'SELECT txid_current()::text AS id' })).rows[0]!.id;
  return (await id()) === (await id());
}

// The pool's client on PostgreSQL (decision 0064); PGlite has no round trips to save.
describe.skipIf(!process.env.CTK_TEST_POSTGRES_URL)('the pipelined client', () => {
  let pool: pg.Pool;
  beforeAll(async () => {
    const url = await createTestDatabase('pipelined');
    pool = new pg.Pool({ connectionString: url, max: 1, Client: pipelinedClient(pg) });
    pool.on('acquire', (client) => (client as unknown as { forgetHeldBegin(): void }).forgetHeldBegin());
    await pool.query('CREATE TABLE keys (key text UNIQUE DEFERRABLE INITIALLY DEFERRED)');
  });
  afterAll(() => pool?.end());

  const named = (name: string, text: string, values: unknown[] = []) => ({ name, text, values });

  it('sends a transaction’s BEGIN with its first statement, and a read marked for after the commit with the COMMIT', async () => {
    const client = await pool.connect();
    try {
      const insert = named('insert', 'INSERT INTO keys VALUES ($1)', ['a']);
      // A statement new on the connection is prepared on its own first, as node-postgres tracks what it prepared.
      await client.query('BEGIN');
      await client.query(insert);
      await client.query(named('after', `${AFTER_COMMIT}SELECT count(*)::int AS n FROM keys`));
      const answers = roundTrips(client);
      await client.query('BEGIN');
      expect(answers()).toBe(0);
      await client.query({ ...insert, values: ['b'] });
      expect(await inTransaction(client)).toBe(true);
      const after = await client.query(named('after', `${AFTER_COMMIT}SELECT count(*)::int AS n FROM keys`));
      expect(after.rows).toEqual([{ n: 2 }]);
      expect(answers()).toBe(4);
      expect(await inTransaction(client)).toBe(false);
    } finally {
      client.release();
    }
  });

  it('fails the statement sent with BEGIN as it would fail alone, and leaves the transaction for its ROLLBACK', async () => {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await expect(client.query(named('divide', 'SELECT 1 / $1::int AS n', [0]))).rejects.toThrow(/division by zero/);
      await expect(inTransaction(client)).rejects.toThrow(/current transaction is aborted/);
      await client.query('ROLLBACK');
      await client.query('BEGIN');
      expect((await client.query(named('divide', 'SELECT 1 / $1::int AS n', [1]))).rows).toEqual([{ n: 1 }]);
      await client.query('COMMIT');
    } finally {
      client.release();
    }
  });

  it('sends a transaction’s SET LOCAL with its BEGIN, in effect for the transaction alone', async () => {
    const client = await pool.connect();
    try {
      const mode = named('mode', "SELECT current_setting('plan_cache_mode') AS mode");
      await client.query(mode);
      const answers = roundTrips(client);
      await client.query('BEGIN');
      await client.query('SET LOCAL plan_cache_mode = force_generic_plan');
      expect(answers()).toBe(0);
      expect((await client.query(mode)).rows).toEqual([{ mode: 'force_generic_plan' }]);
      expect(answers()).toBe(1);
      await client.query('COMMIT');
      expect((await client.query(mode)).rows).toEqual([{ mode: 'auto' }]);
      // A setting held for a transaction that sends no statement is sent with nothing.
      await client.query('BEGIN');
      await client.query('SET LOCAL plan_cache_mode = force_custom_plan');
      await client.query('ROLLBACK');
      expect(answers()).toBe(3);
      expect((await client.query(mode)).rows).toEqual([{ mode: 'auto' }]);
    } finally {
      client.release();
    }
  });

  it('sends nothing for a transaction without a statement, and no BEGIN its last user left held', async () => {
    const client = await pool.connect();
    const answers = roundTrips(client);
    await client.query('BEGIN');
    await client.query('COMMIT');
    expect(answers()).toBe(0);
    await client.query('BEGIN');
    client.release();
    const again = await pool.connect();
    try {
      expect(again).toBe(client);
      expect(await inTransaction(again)).toBe(false);
    } finally {
      again.release();
    }
  });
});
