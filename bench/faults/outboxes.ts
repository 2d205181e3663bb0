// The emitting apps' outboxes, read from their databases: what is unsent now and how old its oldest row is, and
// after a run how long its events waited from commit (created_at) to the broker's acknowledgement (sent_at).
import pg from 'pg';

const EMITTING = ['pos', 'commerce', 'p2p', 'contracts'];

/** Runs `sql` on each emitting app's database (`<prefix>_<app>` on the server) and answers each app's first row. */
async function eachOutbox<T>(
  serverUrl: string,
  prefix: string,
  sql: string,
  params: unknown[] = [],
): Promise<Array<{ app: string; row: T }>> {
  const rows: Array<{ app: string; row: T }> = [];
  for (const app of EMITTING) {
    const url = new URL(serverUrl);
    url.pathname = `/${prefix}_${app}`;
    const client = new pg.Client({ connectionString: url.toString() });
    // PostgreSQL may crash (a fault) while the client is open: the query's promise fails with it, and the
    // client's own 'error' event, unheard, would end the bench.
    client.on('error', () => undefined);
    await client.connect();
    try {
      rows.push({ app, row: (await client.query(sql, params)).rows[0] as T });
    } finally {
      await client.end();
    }
  }
  return rows;
}

/** Unsent rows in every outbox, and the age of the oldest of them in seconds (0 when none). */
export async function outboxBacklog(serverUrl: string, prefix: string): Promise<{ rows: number; oldestSeconds: number }> {
  const each = await eachOutbox<{ n: number; age: number | null }>(
    serverUrl,
    prefix,
    'SELECT count(*)::int AS n, extract(epoch FROM now() - min(created_at))::float AS age FROM outbox_events WHERE sent_at IS NULL',
  );
  return {
    rows: each.reduce((n, { row }) => n + row.n, 0),
    oldestSeconds: Math.max(0, ...each.map(({ row }) => row.age ?? 0)),
  };
}

/** Per app, how long the events committed since `since` waited in the outbox before NATS acknowledged them. */
export async function outboxWaits(serverUrl: string, prefix: string, since: Date) {
  return eachOutbox<{ events: number; p50: number | null; p99: number | null; max: number | null }>(
    serverUrl,
    prefix,
    `SELECT count(*)::int AS events,
            (percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM sent_at - created_at)) * 1000)::float8 AS p50,
            (percentile_cont(0.99) WITHIN GROUP (ORDER BY extract(epoch FROM sent_at - created_at)) * 1000)::float8 AS p99,
            (max(extract(epoch FROM sent_at - created_at)) * 1000)::float8 AS max
       FROM outbox_events WHERE sent_at IS NOT NULL AND created_at >= $1`,
    [since],
  );
}
