import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import {
  DriverAdapterError,
  type IsolationLevel,
  type SqlDriverAdapter,
  type SqlMigrationAwareDriverAdapterFactory,
  type SqlQuery,
  type SqlResultSet,
  type Transaction,
  type TransactionOptions,
} from '@prisma/driver-adapter-utils';
import type { EmbeddedStatements } from './migrate.js';
import type { EmbeddedOptions } from './pglite-open.js';
import type { Database } from './open-database.js';

/** What the process asks of the embedded databases' thread (pglite-thread.ts). */
export type ThreadRequest =
  | { op: 'open'; options: EmbeddedOptions }
  | { op: 'query' | 'execute'; db: number; tx?: number; query: SqlQuery }
  | { op: 'executeScript' | 'script'; db: number; sql: string }
  | { op: 'rows'; db: number; sql: string; params?: unknown[] }
  | { op: 'begin'; db: number; isolationLevel?: IsolationLevel }
  | { op: 'commit' | 'rollback'; db: number; tx: number }
  | { op: 'close'; db: number };
export type ThreadMessage = { id: number; request: ThreadRequest };
export type ThreadError = {
  name: string;
  message: string;
  stack?: string;
  driverError?: ConstructorParameters<typeof DriverAdapterError>[0];
};
export type ThreadReply = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: ThreadError };

/**
 * The thread's code: dist's, beside this file's, also when this file runs from its TypeScript source (the
 * package's own tests, which run after the build) since a worker thread loads JavaScript alone.
 */
const THREAD_URL = new URL(import.meta.url.endsWith('.ts') ? '../../dist/db/pglite-thread.js' : './pglite-thread.js', import.meta.url);

/**
 * A thread that runs embedded databases of the process (decision 0058): this thread's way to it, the worker
 * itself, or a port it handed another thread of the process (`databaseThreadPort`, decision 0059). It keeps
 * this thread alive only while a request waits on it; a thread that failed (or a port that closed) fails what
 * waited and is replaced by the next open (a database it held is then closed: its requests fail).
 */
class DatabaseThread {
  readonly #to: Worker | MessagePort;
  readonly #waiting = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  #lastId = 0;
  failure: Error | undefined;

  constructor(to: Worker | MessagePort = new Worker(THREAD_URL)) {
    this.#to = to;
    to.unref();
    to.on('message', (reply: ThreadReply) => this.#settle(reply));
    if (to instanceof Worker) {
      to.on('error', (error) => this.#fail(error));
      to.on('exit', (code) => this.#fail(new Error(`the embedded databases' thread stopped (exit code ${code})`)));
    } else to.on('close', () => this.#fail(new Error("the embedded databases' thread is no longer reachable")));
  }

  /** A port of its own for another thread of the process, answered by the same databases' thread. */
  port(): MessagePort {
    const { port1, port2 } = new MessageChannel();
    this.#to.postMessage({ connect: port2 }, [port2]);
    return port1;
  }

  call<T>(request: ThreadRequest): Promise<T> {
    if (this.failure) return Promise.reject(this.failure);
    const id = ++this.#lastId;
    if (this.#waiting.size === 0) this.#to.ref();
    this.#to.postMessage({ id, request } satisfies ThreadMessage);
    return new Promise<T>((resolve, reject) => this.#waiting.set(id, { resolve: resolve as (value: unknown) => void, reject }));
  }

  #settle(reply: ThreadReply) {
    const waiting = this.#waiting.get(reply.id);
    this.#waiting.delete(reply.id);
    if (this.#waiting.size === 0) this.#to.unref();
    if (reply.ok) waiting?.resolve(reply.value);
    else waiting?.reject(errorOf(reply.error));
  }

  #fail(error: Error) {
    this.failure ??= error;
    for (const waiting of this.#waiting.values()) waiting.reject(this.failure);
    this.#waiting.clear();
  }
}

/** A driver adapter's error as Prisma reads it (its cause), any other with the thread's stack. */
function errorOf(error: ThreadError): Error {
  if (error.driverError) return new DriverAdapterError(error.driverError);
  return Object.assign(new Error(error.message), { name: error.name, stack: error.stack });
}

/** The databases' threads this thread opens on (start-all starts two, decision 0069), and the one the next open takes. */
let threads: DatabaseThread[] = [];
let turn = 0;

/**
 * The databases' thread the next database opens on: each in turn. One that failed is left out, and with none left
 * a new one is started.
 */
function databaseThread(): DatabaseThread {
  threads = threads.filter((thread) => !thread.failure);
  if (threads.length === 0) threads = [new DatabaseThread()];
  return threads[turn++ % threads.length]!;
}

/**
 * A port to one of this process's embedded databases' threads (the next in turn) for another thread of it (an app
 * on a thread of its own, decision 0059), which passes it to `useDatabaseThreads`: the process's PGlite threads,
 * not one more for each thread.
 */
export function databaseThreadPort(): MessagePort {
  return databaseThread().port();
}

/**
 * This thread's embedded databases open on the databases' threads at the other end of `to`, in turn: a port another
 * thread handed over (databaseThreadPort), or threads started early (`scripts/start-all.mjs` starts two before it
 * loads the apps: they load PGlite meanwhile, and open the databases two at a time, decision 0069).
 */
export function useDatabaseThreads(to: Array<Worker | MessagePort>): void {
  threads = to.map((each) => new DatabaseThread(each));
  turn = 0;
}

type Opened = { db: number; appliedMigrations: string[]; adapterName: string };

/** Databases asked for before their service opens them (prepareEmbeddedDatabase), by folder. */
const prepared = new Map<string, { on: DatabaseThread; options: EmbeddedOptions; opening: Promise<Opened> }>();

/**
 * Starts opening an embedded database in its folder that this process will open later (openEmbeddedDatabase
 * with the same options then takes it): the databases' thread opens it meanwhile.
 */
export function prepareEmbeddedDatabase(options: EmbeddedOptions): void {
  if (options.dir === ':memory:' || prepared.has(options.dir)) return;
  const on = databaseThread();
  const opening = on.call<Opened>({ op: 'open', options });
  // A failure is the later open's, which rethrows it.
  opening.catch(() => undefined);
  prepared.set(options.dir, { on, options, opening });
}

/** Opens and migrates an embedded database on the databases' thread. */
export async function openEmbeddedDatabase(options: EmbeddedOptions): Promise<Database> {
  const early = prepared.get(options.dir);
  prepared.delete(options.dir);
  const taken = early && !early.on.failure && early.options.prismaDir === options.prismaDir ? early : undefined;
  if (early && !taken) {
    // Not the database asked for now: closed first, as one folder is never open twice.
    await early.opening.then(({ db }) => early.on.call({ op: 'close', db })).catch(() => undefined);
  }
  const on = taken?.on ?? databaseThread();
  const opened = await (taken?.opening ?? on.call<Opened>({ op: 'open', options }));
  const { db, adapterName } = opened;
  const call = <T>(request: ThreadRequest) => on.call<T>(request);
  const info = { provider: 'postgres' as const, adapterName };
  const queryable = (tx?: number) => ({
    ...info,
    queryRaw: (query: SqlQuery) => call<SqlResultSet>({ op: 'query', db, ...(tx === undefined ? {} : { tx }), query }),
    executeRaw: (query: SqlQuery) => call<number>({ op: 'execute', db, ...(tx === undefined ? {} : { tx }), query }),
  });
  const adapter: SqlDriverAdapter = {
    ...queryable(),
    executeScript: (sql) => call({ op: 'executeScript', db, sql }),
    async startTransaction(isolationLevel): Promise<Transaction> {
      const { tx, options } = await call<{ tx: number; options: TransactionOptions }>({
        op: 'begin',
        db,
        ...(isolationLevel ? { isolationLevel } : {}),
      });
      return { ...queryable(tx), options, commit: () => call({ op: 'commit', db, tx }), rollback: () => call({ op: 'rollback', db, tx }) };
    },
    getConnectionInfo: () => ({ supportsRelationJoins: true }),
    dispose: async () => undefined,
  };
  const factory: SqlMigrationAwareDriverAdapterFactory = {
    ...info,
    connect: async () => adapter,
    connectToShadowDb: () =>
      Promise.reject(new Error('an embedded database has no shadow database: diffSchemas takes a PGlite of its own')),
  };
  const embedded: EmbeddedStatements = {
    rows: (sql, params) => call({ op: 'rows', db, sql, ...(params ? { params } : {}) }),
    script: (sql) => call({ op: 'script', db, sql }),
  };
  return {
    adapter: factory,
    migrations: { embedded },
    kind: 'pglite',
    appliedMigrations: opened.appliedMigrations,
    close: () => call({ op: 'close', db }),
  };
}
