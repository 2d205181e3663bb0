import { randomBytes } from 'node:crypto';
import { ensureDatabase } from '../db/ensure-database.js';

/**
 * A fresh database for one test file. With `CTK_TEST_POSTGRES_URL` set (CI's PostgreSQL run), it creates
 * a new database on that server and returns its URL; otherwise it returns undefined, which means an
 * in-memory PGlite database.
 */
export async function createTestDatabase(prefix: string): Promise<string | undefined> {
  const serverUrl = process.env.CTK_TEST_POSTGRES_URL;
  if (!serverUrl) return undefined;
  return ensureDatabase(serverUrl, `ctk_test_${prefix}_${randomBytes(6).toString('hex')}`);
}

/** Where a test's embedded data goes when it uses PGlite: in memory. */
export const TEST_DATA_DIR = ':memory:';
