import { randomBytes } from 'node:crypto';
import { cp, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { ensureDatabase } from '../db/ensure-database.js';

/** The variable naming a test run (scripts/run-tests.mjs sets it): its databases carry the name, and go when it ends. */
export const TEST_RUN_VARIABLE = 'CTK_TEST_RUN';

/**
 * A fresh database for one test file. With `CTK_TEST_POSTGRES_URL` set (CI's PostgreSQL run), it creates
 * a new database on that server and returns its URL; otherwise it returns undefined, which means an
 * in-memory PGlite database. Within a run of scripts/run-tests.mjs its name carries the run's, and the run
 * drops it as it ends (dropTestDatabases).
 */
export async function createTestDatabase(prefix: string): Promise<string | undefined> {
  const serverUrl = process.env.CTK_TEST_POSTGRES_URL;
  if (!serverUrl) return undefined;
  const run = process.env[TEST_RUN_VARIABLE];
  const tag = run ? `${run}_` : '';
  return ensureDatabase(serverUrl, `ctk_test_${prefix}_${tag}${randomBytes(6).toString('hex')}`);
}

/** Drops the databases test run `run` created on the server (their connections closed); answers how many. */
export async function dropTestDatabases(serverUrl: string, run: string): Promise<number> {
  if (!/^[a-z0-9]+$/.test(run)) throw new Error(`"${run}" is not a test run's name (lower-case letters and digits)`);
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ datname: string }>(
      "SELECT datname FROM pg_database WHERE datname LIKE 'ctk\\_test\\_%' AND datname LIKE '%\\_' || $1 || '\\_%'",
      [run],
    );
    for (const { datname } of rows) await client.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
    return rows.length;
  } finally {
    await client.end();
  }
}

/** Where a test's embedded data goes when it uses PGlite: in memory. */
export const TEST_DATA_DIR = ':memory:';

/**
 * A copy in `into` of an app's prisma folder (`prismaDir`) without the migrations after `last`: a database opened
 * with it is as the app left it before those, for a test of what they make of the rows it held. Answers the copy's path.
 */
export async function prismaDirUpTo(prismaDir: string, last: string, into: string): Promise<string> {
  const copy = join(into, 'prisma');
  await cp(prismaDir, copy, { recursive: true });
  for (const name of await readdir(join(copy, 'migrations')))
    if (name > last) await rm(join(copy, 'migrations', name), { recursive: true });
  return copy;
}
