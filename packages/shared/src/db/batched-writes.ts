import { isStatementRefused } from './prisma-errors.js';

/**
 * One statement for the rows of many requests in flight: `write(row)` answers each caller its own result, as a
 * statement of its own would, and sends the rows together whenever `inFlight` statements are out already (under
 * load), each one as it comes otherwise (an idle service waits on nothing). `send` writes its rows in one
 * statement and answers one result a row, in the rows' order. A statement the database refused (it rolled back:
 * isStatementRefused) is sent again row by row, one after another in the order they came, so that a row fails only
 * by its own error, never by another's; any other failure (a lost connection, after which it may have committed)
 * fails every row of it, as it would have failed each row's own statement.
 *
 * For statements each their own transaction (autocommit), whose rows do not depend on one another: a row
 * answered has committed. Every statement a process sends costs the process and PostgreSQL a round trip, a
 * backend's wake-up and a commit (docs/performance.md); rows sent together share them (decision 0060).
 */
export function batchedWrites<Row, Result>(
  send: (rows: Row[]) => Promise<Result[]>,
  { inFlight = 2, maxRows = 100 }: { inFlight?: number; maxRows?: number } = {},
): (row: Row) => Promise<Result> {
  type Waiting = { row: Row; resolve: (result: Result) => void; reject: (error: unknown) => void };
  const queue: Waiting[] = [];
  let sending = 0;

  function sendQueued(): void {
    while (sending < inFlight && queue.length > 0) {
      const batch = queue.splice(0, maxRows);
      sending++;
      void sendBatch(batch).finally(() => {
        sending--;
        sendQueued();
      });
    }
  }

  async function sendBatch(batch: Waiting[]): Promise<void> {
    let results: Result[];
    try {
      results = await send(batch.map((waiting) => waiting.row));
    } catch (error) {
      if (batch.length > 1 && isStatementRefused(error)) {
        // One after another, in the order they came: sent at once, two rows of one key (an upsert) would be written
        // in whichever order the pool's connections happened to run them.
        for (const waiting of batch) await sendBatch([waiting]);
      } else for (const waiting of batch) waiting.reject(error);
      return;
    }
    if (results.length !== batch.length) {
      const error = new Error(`a batched statement answered ${results.length} results for ${batch.length} rows`);
      for (const waiting of batch) waiting.reject(error);
      return;
    }
    batch.forEach((waiting, index) => waiting.resolve(results[index]!));
  }

  return (row) =>
    new Promise<Result>((resolve, reject) => {
      queue.push({ row, resolve, reject });
      sendQueued();
    });
}
