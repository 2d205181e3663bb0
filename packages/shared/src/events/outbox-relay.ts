import { SpanKind, trace } from '@opentelemetry/api';
import type { Sql, SqlQueries } from '../db/sql.js';
import { countOutboxPublishes, type OutboxState } from '../metrics/metrics.js';
import { contextFrom, headersOf, type TraceHeaders } from '../tracing/context.js';
import { endSpan, startSpan } from '../tracing/tracing.js';
import type { EventLogger, EventTransport } from './transport.js';
import { Wakeup } from './wakeup.js';
import { within } from './within.js';

export type OutboxRelayOptions = {
  /** The app's statements without Prisma's client (decision 0048): the relay needs no generated model types. */
  sql: Sql;
  transport: EventTransport;
  logger: EventLogger;
  /** Rows claimed (and locked) per transaction. */
  batchSize?: number;
  /**
   * Pause between passes when the outbox is empty (1 s). A commit in this process wakes the relay at once
   * (notify); the poll finds rows no one woke it for: another process's that died before sending them.
   */
  pollMs?: number;
  /** Cap of the doubling pause after failures. */
  maxBackoffMs?: number;
  /** At most one warning per this interval while publishing fails. */
  warnEveryMs?: number;
  /** How long stop() may spend publishing what is pending. */
  drainTimeoutMs?: number;
  /** Limit of one claim-publish-mark transaction; on expiry it rolls back and the rows go again. */
  transactionTimeoutMs?: number;
  /** How long a row stays once sent (its times kept for inspection) before the relay deletes it (24 h). */
  keepSentMs?: number;
  /** At most how often the relay deletes what it keeps no longer and vacuums the outbox, when it sent anything (1 min). */
  pruneEveryMs?: number;
};

type OutboxRow = { id: string; subject: string; payload: Uint8Array; traceContext: string | null };
type PassResult = { sent: number; failure?: { id: string; error: unknown } };

/** The first pause after a failure, doubled at each failure in a row up to maxBackoffMs. */
const FIRST_BACKOFF_MS = 200;
/**
 * Oldest first; SKIP LOCKED leaves rows another relay replica holds to that replica. Read by an index scan of
 * `outbox_events_unsent_idx` (the unsent rows, in this order): each claim passes over the rows sent since the one
 * before, once. Exported for its plan's test.
 */
export const CLAIM = `SELECT id, subject, payload, trace_context FROM outbox_events WHERE sent_at IS NULL
  ORDER BY created_at, id LIMIT $1 FOR UPDATE SKIP LOCKED`;
const RECORD_FAILURE = 'UPDATE outbox_events SET attempts = attempts + 1, last_error = $2 WHERE id = $1';
const BACKLOG = 'SELECT count(*)::int AS n FROM outbox_events WHERE sent_at IS NULL';
// Prisma writes created_at itself, in UTC: the age is taken here, not by the database's now() (its time zone may be another).
const UNSENT = 'SELECT count(*)::int AS backlog, min(created_at) AS oldest FROM outbox_events WHERE sent_at IS NULL';
// At most this many a pass, so that a backlog of old rows is deleted a bounded piece at a time. By the database's
// clock, which marked them sent ($1 milliseconds ago).
const PRUNE = `DELETE FROM outbox_events WHERE id IN (
  SELECT id FROM outbox_events WHERE sent_at < now() - $1::float8 * interval '1 millisecond' LIMIT 10000)`;
// PGlite has no autovacuum; on PostgreSQL this is what autovacuum would do for a queue, sooner.
const VACUUM = 'VACUUM outbox_events';
const markSent = (count: number) =>
  `UPDATE outbox_events SET sent_at = now() WHERE id IN (${Array.from({ length: count }, (_, i) => `$${i + 1}`).join(', ')})`;

/**
 * Publishes committed outbox rows, oldest first, and marks each sent only after the transport
 * acknowledged it. A row is locked while its replica publishes it, so replicas never publish one row
 * at the same time; a crash between publish and mark re-publishes the row under the same id, which
 * the broker drops as a duplicate. A batch is published at once, in order; when a publish fails, the rows
 * acknowledged are marked sent, the first failed row's attempts and last error are recorded, the rest
 * stay for the next pass and the relay backs off.
 */
export class OutboxRelay {
  private readonly batchSize: number;
  private readonly pollMs: number;
  private readonly wakeup = new Wakeup();
  private running: Promise<void> | undefined;
  private stopped: Promise<void> | undefined;
  private stopping = false;
  private failures = 0;
  private lastWarnAt = Number.NEGATIVE_INFINITY;
  private sentSincePrune = 0;
  private lastPrunedAt = Date.now();

  constructor(private readonly options: OutboxRelayOptions) {
    this.batchSize = options.batchSize ?? 100;
    this.pollMs = options.pollMs ?? 1_000;
  }

  start(): this {
    this.running ??= this.loop();
    return this;
  }

  /** Rows not yet published. */
  async backlog(): Promise<number> {
    const rows = await this.options.sql.rows<{ n: number }>(BACKLOG, []);
    return Number(rows[0]?.n ?? 0);
  }

  /** Wakes the relay now instead of at its next poll (e.g. right after a commit). */
  notify(): void {
    this.wakeup.notify();
  }

  /**
   * Finishes the current batch, then publishes what is pending if publishing worked so far, and stops;
   * all within drainTimeoutMs (rows left behind stay in the outbox for the next start).
   */
  stop(): Promise<void> {
    this.stopped ??= (async () => {
      this.stopping = true;
      this.wakeup.notify();
      const finishing = (async () => {
        await this.running;
        if (this.failures === 0) await this.drain();
      })();
      const error = await within(finishing, this.options.drainTimeoutMs ?? 10_000, 'outbox relay did not finish in time').then(
        () => undefined,
        (caught: unknown) => caught,
      );
      await this.warnLeftBehind(error);
    })();
    return this.stopped;
  }

  private async loop(): Promise<void> {
    while (!this.stopping) {
      const pause = await this.step();
      if (!this.stopping && pause > 0) await this.wakeup.wait(pause);
    }
  }

  /** One pass; returns the pause before the next one. */
  private async step(): Promise<number> {
    try {
      const { sent, failure } = await this.pass();
      if (failure) return await this.failed(failure.error, failure.id);
      if (this.failures > 0) this.options.logger.info({ sent }, 'outbox relay is publishing again');
      this.failures = 0;
      this.sentSincePrune += sent;
      if (sent < this.batchSize)
        await this.prune().catch((error: unknown) => this.options.logger.warn({ err: error }, 'outbox relay could not prune the outbox'));
      return sent === this.batchSize ? 0 : this.pollMs;
    } catch (error) {
      return this.failed(error);
    }
  }

  /**
   * Once the outbox is caught up and at most every pruneEveryMs, if anything was sent since: deletes the rows sent
   * longer than keepSentMs ago and vacuums the table. Each row marked sent leaves a dead version behind, and
   * nothing else would delete the rows; on PGlite nothing else would vacuum them either.
   */
  private async prune(): Promise<void> {
    const now = Date.now();
    if (this.sentSincePrune === 0 || now - this.lastPrunedAt < (this.options.pruneEveryMs ?? 60_000)) return;
    this.sentSincePrune = 0;
    this.lastPrunedAt = now;
    await this.options.sql.rows(PRUNE, [this.options.keepSentMs ?? 24 * 60 * 60 * 1000]);
    await this.options.sql.rows(VACUUM, []);
  }

  private async drain(): Promise<void> {
    for (;;) {
      const { sent, failure } = await this.pass();
      if (failure) throw failure.error;
      if (sent < this.batchSize) return;
    }
  }

  private pass(): Promise<PassResult> {
    const { sql, transport } = this.options;
    return sql.transaction(async (tx) => {
      const rows = await tx.rows<OutboxRow>(CLAIM, [this.batchSize]);
      // All at once: the connection sends them in order and the acknowledgements come back as they come,
      // so a batch costs one round trip, not one per row. A pass that outlasts its limit rolls back: its rows go again.
      const publishing = Promise.allSettled(rows.map((row) => publishTraced(transport, row)));
      const timeout = this.options.transactionTimeoutMs ?? 60_000;
      const results = await within(publishing, timeout, `the outbox relay's pass took longer than ${timeout} ms`);
      const sent = rows.filter((_, i) => results[i]?.status === 'fulfilled').map((row) => row.id);
      const failed = results.findIndex((result) => result.status === 'rejected');
      const failure: PassResult['failure'] =
        failed < 0 ? undefined : { id: rows[failed]?.id ?? '', error: (results[failed] as PromiseRejectedResult).reason };
      countOutboxPublishes(sent.length, results.length - sent.length);
      if (sent.length > 0) await tx.rows(markSent(sent.length), sent);
      if (failure) await tx.rows(RECORD_FAILURE, [failure.id, describe(failure.error)]);
      return { sent: sent.length, failure };
    });
  }

  private async failed(error: unknown, id?: string): Promise<number> {
    this.failures += 1;
    const now = Date.now();
    if (now - this.lastWarnAt >= (this.options.warnEveryMs ?? 30_000)) {
      this.lastWarnAt = now;
      const backlog = await this.backlog().catch(() => undefined);
      this.options.logger.warn(
        { err: error, backlog, failures: this.failures, id },
        'outbox relay cannot publish; events wait in the outbox',
      );
    }
    return Math.min(FIRST_BACKOFF_MS * 2 ** this.failures, this.options.maxBackoffMs ?? 10_000);
  }

  /** Warns if rows remain unsent; bounded, since a transaction still hanging may hold the database. */
  private async warnLeftBehind(error: unknown): Promise<void> {
    const backlog = await within(this.backlog(), 1_000, 'backlog query timed out').catch(() => undefined);
    if (backlog !== 0) this.options.logger.warn({ err: error, backlog }, 'outbox relay stopped with events still in the outbox');
  }
}

/**
 * Publishes a row in a span (PRODUCER) of the trace that wrote it, and sends that span's context and the
 * request id with the message, for its consumers to continue.
 */
async function publishTraced(transport: EventTransport, row: OutboxRow): Promise<void> {
  const parent = contextFrom(storedHeaders(row.traceContext));
  const span = startSpan(
    `publish ${row.subject}`,
    SpanKind.PRODUCER,
    {
      'messaging.system': 'nats',
      'messaging.operation.type': 'send',
      'messaging.destination.name': row.subject,
      'messaging.message.id': row.id,
    },
    parent,
  );
  try {
    await transport.publish({ id: row.id, subject: row.subject, data: row.payload, headers: headersOf(trace.setSpan(parent, span)) });
    endSpan(span);
  } catch (error) {
    endSpan(span, error);
    throw error;
  }
}

/** The headers kept with a row; a row written before they were kept, or unreadable, has none. */
function storedHeaders(stored: string | null): TraceHeaders | undefined {
  if (!stored) return undefined;
  try {
    const parsed: unknown = JSON.parse(stored);
    if (!parsed || typeof parsed !== 'object') return undefined;
    return Object.fromEntries(Object.entries(parsed).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
  } catch {
    return undefined;
  }
}

/** What the outbox holds unsent (ctk_outbox_backlog and ctk_outbox_oldest_age_seconds), whether or not a relay publishes it. */
export async function unsentOutbox(sql: SqlQueries, now = Date.now()): Promise<OutboxState> {
  const [row] = await sql.rows<{ backlog: number; oldest: Date | null }>(UNSENT, []);
  const oldest = row?.oldest ? new Date(row.oldest).getTime() : now;
  return { backlog: Number(row?.backlog ?? 0), oldestAgeSeconds: Math.max(0, now - oldest) / 1000 };
}

/** Starts a relay; `stop()` it on shutdown before closing the transport and the database. */
export function startOutboxRelay(options: OutboxRelayOptions): OutboxRelay {
  return new OutboxRelay(options).start();
}

function describe(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).slice(0, 1_000);
}
