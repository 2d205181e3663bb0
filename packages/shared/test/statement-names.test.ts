import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statementNames } from '../src/db/statement-names.js';
import { openOutboxDatabase, type OutboxDatabase } from './fixtures/outbox/database.js';

describe('statement names', () => {
  it('names each distinct statement once, the same name each time, and none past the limit', () => {
    const name = statementNames(2);
    const query = (sql: string) => name({ sql, args: [], argTypes: [] });
    expect([query('SELECT 1'), query('SELECT 2'), query('SELECT 1')]).toEqual(['ctk_1', 'ctk_2', 'ctk_1']);
    expect(query('SELECT 3')).toBe('');
    expect(query('SELECT 2')).toBe('ctk_2');
  });
});

describe('statements on PostgreSQL', () => {
  let db: OutboxDatabase;
  beforeAll(async () => {
    db = await openOutboxDatabase();
  });
  afterAll(() => db?.close());

  it('are prepared once on a connection and run again by name', async (context) => {
    if (db.kind !== 'postgres') return context.skip();
    const prepared = await db.prisma.$transaction(async (tx) => {
      for (let i = 0; i < 3; i += 1) await tx.outboxEvent.findMany({ where: { subject: `subject-${i}` } });
      // The same connection: the transaction's.
      return tx.$queryRawUnsafe<Array<{ name: string; statement: string; calls: bigint }>>(
        'SELECT name, statement, generic_plans + custom_plans AS calls FROM pg_prepared_statements',
      );
    });
    const find = prepared.filter((row) => row.statement.includes('FROM "public"."outbox_events"'));
    expect(find).toHaveLength(1);
    expect(find[0]!.name).toMatch(/^ctk_\d+$/);
    expect(Number(find[0]!.calls)).toBe(3);
  });
});
