// The embedded databases' thread (decision 0058): every PGlite database of the process runs here, behind
// PGlite's Prisma driver adapter, and the process's own thread sends each statement across (pglite-client.ts).
// Opening a database (WebAssembly, its files, its migrations) and running its statements then take this
// thread's core, not the one that serves requests.
import { parentPort, type MessagePort } from 'node:worker_threads';
import type { PGlite } from '@electric-sql/pglite';
import { isDriverAdapterError, type SqlDriverAdapter, type Transaction } from '@prisma/driver-adapter-utils';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { openEmbedded, statementsOf, type EmbeddedOptions } from './pglite-open.js';
import type { ThreadError, ThreadMessage, ThreadReply, ThreadRequest } from './pglite-client.js';

type Open = { pglite: PGlite; adapter: SqlDriverAdapter; transactions: Map<number, Transaction> };
const databases = new Map<number, Open>();
let lastId = 0;
/**
 * Opens run one at a time, in the order asked: each is mostly CPU, so interleaved they would all finish at
 * the end, while the first asked for (the first app to start) is ready soonest alone.
 */
let opens: Promise<unknown> = Promise.resolve();

if (!parentPort) throw new Error('pglite-thread.js runs as a worker thread (pglite-client.ts starts it)');
serve(parentPort);

/**
 * Answers the requests that come on `port`: the thread that started this one, and each other thread of the
 * process it hands a port of its own (`{ connect }`, decision 0059), each answered on its own port.
 */
function serve(port: MessagePort): void {
  port.on('message', (message: ThreadMessage | { connect: MessagePort }) => {
    if ('connect' in message) {
      serve(message.connect);
      return;
    }
    const { id, request } = message;
    answer(request).then(
      (value) => reply(port, { id, ok: true, value }),
      (error: unknown) => reply(port, { id, ok: false, error: threadError(error) }),
    );
  });
}

/** Sends an answer; one that cannot be copied across (a value no thread can receive) is answered as that error. */
function reply(port: MessagePort, answer: ThreadReply) {
  try {
    port.postMessage(answer);
  } catch (error) {
    port.postMessage({ id: answer.id, ok: false, error: threadError(error) } satisfies ThreadReply);
  }
}

async function answer(request: ThreadRequest): Promise<unknown> {
  if (request.op === 'open') {
    const opened = opens.then(() => openAdapted(request.options));
    opens = opened.catch(() => undefined);
    return opened;
  }
  const open = databases.get(request.db);
  if (!open) throw new Error(`embedded database ${request.db} is not open`);
  switch (request.op) {
    case 'query':
      return queryable(open, request.tx).queryRaw(request.query);
    case 'execute':
      return queryable(open, request.tx).executeRaw(request.query);
    case 'executeScript':
      return open.adapter.executeScript(request.sql);
    case 'begin': {
      const transaction = await open.adapter.startTransaction(request.isolationLevel);
      open.transactions.set(++lastId, transaction);
      return { tx: lastId, options: transaction.options };
    }
    case 'commit':
    case 'rollback': {
      const transaction = open.transactions.get(request.tx);
      if (!transaction) throw new Error(`transaction ${request.tx} is not open`);
      open.transactions.delete(request.tx);
      return request.op === 'commit' ? transaction.commit() : transaction.rollback();
    }
    case 'rows':
      return statementsOf(open.pglite).rows(request.sql, request.params);
    case 'script':
      return statementsOf(open.pglite).script(request.sql);
    case 'close':
      databases.delete(request.db);
      return open.pglite.close();
  }
}

async function openAdapted(options: EmbeddedOptions) {
  const { pglite, appliedMigrations } = await openEmbedded(options);
  const adapter = await new PrismaPGlite(pglite).connect();
  databases.set(++lastId, { pglite, adapter, transactions: new Map() });
  return { db: lastId, appliedMigrations, adapterName: adapter.adapterName };
}

function queryable(open: Open, tx: number | undefined) {
  if (tx === undefined) return open.adapter;
  const transaction = open.transactions.get(tx);
  if (!transaction) throw new Error(`transaction ${tx} is not open`);
  return transaction;
}

/** An error as it crosses: a driver adapter's with its cause (how Prisma reads it), any other by name and message. */
function threadError(error: unknown): ThreadError {
  if (error instanceof Error) {
    const driverError = isDriverAdapterError(error) ? (error.cause as ThreadError['driverError']) : undefined;
    return { name: error.name, message: error.message, stack: error.stack, ...(driverError ? { driverError } : {}) };
  }
  return { name: 'Error', message: String(error) };
}
