/**
 * The URL of database `name` on the PostgreSQL server at `serverUrl`, created when it is missing: one
 * database per app on one server, as the distributed path runs them (scripts/distributed/).
 */
export async function ensureDatabase(serverUrl: string, name: string): Promise<string> {
  // Quoted in CREATE DATABASE: letters, digits, _ and - only, at most PostgreSQL's 63 bytes.
  if (!/^[A-Za-z_][\w-]{0,62}$/.test(name)) throw new Error(`"${name}" is not a database name this creates (letters, digits, _ and -)`);
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    // Another starter may create it between the check and the create (duplicate_database, or the catalog's
    // unique index when both ran at once): theirs is as good.
    if (found.rowCount === 0)
      await client.query(`CREATE DATABASE "${name}"`).catch((error: { code?: string }) => {
        if (error.code !== '42P04' && error.code !== '23505') throw error;
      });
  } finally {
    await client.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
