import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTestDatabase, dropTestDatabases, TEST_RUN_VARIABLE } from '../src/testing/test-database.js';

const serverUrl = process.env.CTK_TEST_POSTGRES_URL;

async function databases(pattern: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ datname: string }>('SELECT datname FROM pg_database WHERE datname LIKE $1 ORDER BY 1', [pattern]);
    return rows.map((row) => row.datname);
  } finally {
    await client.end();
  }
}

describe.skipIf(!serverUrl)("a test run's databases on PostgreSQL", () => {
  afterEach(() => vi.unstubAllEnvs());

  it('carry the run in their names, and the run drops its own alone, open connections and all', async () => {
    const [mine, theirs] = [`t${randomBytes(4).toString('hex')}`, `t${randomBytes(4).toString('hex')}`];
    vi.stubEnv(TEST_RUN_VARIABLE, mine);
    const first = new URL((await createTestDatabase('cleanup'))!).pathname.slice(1);
    await createTestDatabase('cleanup');
    vi.stubEnv(TEST_RUN_VARIABLE, theirs);
    await createTestDatabase('cleanup');
    expect(first).toMatch(new RegExp(`^ctk_test_cleanup_${mine}_[0-9a-f]{12}$`));
    // A test that left a connection open does not keep its database.
    const open = new pg.Client({ connectionString: new URL(`/${first}`, serverUrl).toString() });
    await open.connect();
    open.on('error', () => undefined);

    expect(await dropTestDatabases(serverUrl!, mine)).toBe(2);
    expect(await databases(`ctk_test_cleanup_${mine}_%`)).toEqual([]);
    expect(await databases(`ctk_test_cleanup_${theirs}_%`)).toHaveLength(1);
    expect(await dropTestDatabases(serverUrl!, theirs)).toBe(1);
    await open.end().catch(() => undefined);
  });

  it("refuses a run's name that is not letters and digits", async () => {
    await expect(dropTestDatabases(serverUrl!, "x' OR 1=1 --")).rejects.toThrow('is not a test run');
  });
});
