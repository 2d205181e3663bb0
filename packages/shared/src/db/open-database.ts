import { join, resolve } from 'node:path';
import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import { connectSql, type Sql } from './sql.js';
import { applyMigrations, type MigrationTarget } from './migrate.js';
import { openEmbeddedDatabase, prepareEmbeddedDatabase } from './pglite-client.js';
import { templatesDir } from './pglite-template.js';
import { pipelinedClient } from './pipelined-client.js';
import { statementNames } from './statement-names.js';

export type DatabaseOptions = {
  /** The service's name: the embedded database lives in `<dataDir>/<service>`. */
  service: string;
  /** PostgreSQL URL; without it the service uses an embedded PGlite database. */
  databaseUrl?: string | undefined;
  /** Folder for embedded data; `:memory:` keeps it in memory (tests). */
  dataDir: string;
  /** The app's `prisma/` folder, holding schema.prisma and migrations/. */
  prismaDir: string;
};

export type Database = {
  adapter: SqlMigrationAwareDriverAdapterFactory;
  /** Where its migrations run (applyMigrations, pendingMigrations). */
  migrations: MigrationTarget;
  kind: 'postgres' | 'pglite';
  appliedMigrations: string[];
  close(): Promise<void>;
};

/**
 * Opens the service's database and migrates it: PostgreSQL when a URL is configured, else an embedded PGlite
 * database, which runs on the process's embedded databases' thread (pglite-client.ts).
 */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (!options.databaseUrl) return openEmbeddedDatabase(embeddedOptions(options));
  const database = await openPostgres(options.databaseUrl);
  try {
    database.appliedMigrations = await applyMigrations(database.migrations, options.prismaDir);
  } catch (error) {
    await database.close().catch(() => undefined);
    throw error;
  }
  return database;
}

/**
 * Starts opening the embedded database that openDatabase will be asked for with the same options, so that
 * the embedded databases' thread opens it while this one does other work (the embedded default's start).
 * Nothing with a PostgreSQL URL or in memory.
 */
export function prepareDatabase(options: DatabaseOptions): void {
  if (!options.databaseUrl) prepareEmbeddedDatabase(embeddedOptions(options));
}

function embeddedOptions(options: DatabaseOptions) {
  const dir = options.dataDir === ':memory:' ? ':memory:' : resolve(join(options.dataDir, options.service));
  return { dir, prismaDir: options.prismaDir, templatesDir: templatesDir() };
}

/** pg and its Prisma adapter are loaded by the first database on PostgreSQL: an app on PGlite loads neither. */
async function openPostgres(url: string): Promise<Database> {
  const [{ default: pg }, { PrismaPg }] = await Promise.all([import('pg'), import('@prisma/adapter-pg')]);
  // The app's pool, ended on close so no connection outlives the app; migrations run on a connection of their own.
  // Each statement is prepared once per connection (statement-names.ts).
  // Its clients send a transaction's BEGIN with its first statement (decision 0064).
  const pool = new pg.Pool({ connectionString: url, max: 10, Client: pipelinedClient(pg) });
  pool.on('acquire', (client) => (client as unknown as { forgetHeldBegin(): void }).forgetHeldBegin());
  return {
    adapter: new PrismaPg(pool, { statementNameGenerator: statementNames() }),
    migrations: { postgresUrl: url },
    kind: 'postgres',
    appliedMigrations: [],
    close: () => pool.end(),
  };
}

/** The app's Prisma client and Sql on its database; close() ends them and the database. */
export type OpenedPrisma<P> = { prisma: P; sql: Sql; close(): Promise<void> };

/** The app's Prisma client and Sql on its database once it is open and migrated (openingPrisma, awaited). */
export async function openPrisma<P extends { $disconnect(): Promise<void> }>(
  options: DatabaseOptions,
  createClient: (adapter: SqlMigrationAwareDriverAdapterFactory) => P,
): Promise<OpenedPrisma<P>> {
  const { opened, ...database } = openingPrisma(options, createClient);
  await opened;
  return database;
}

/**
 * The app's Prisma client and Sql at once, on its database as it opens and migrates (openDatabase): each of their
 * statements waits for the open, and `opened` settles with it (its failure, when it fails). An app is then built
 * while its database opens, as the bootstrap does (decision 0067). close() ends the client, the Sql and the
 * database once the open settled; after a failed open there is nothing to end.
 */
export function openingPrisma<P extends { $disconnect(): Promise<void> }>(
  options: DatabaseOptions,
  createClient: (adapter: SqlMigrationAwareDriverAdapterFactory) => P,
): OpenedPrisma<P> & { opened: Promise<void> } {
  const opening = openDatabase(options).then(async (database) => {
    try {
      return { database, sql: await connectSql(database.adapter) };
    } catch (error) {
      await database.close().catch(() => undefined);
      throw error;
    }
  });
  // The failure is the caller's, at `opened` or at a statement.
  opening.catch(() => undefined);
  const prisma = createClient({
    provider: 'postgres',
    // Prisma names its adapter in its errors; the database's own adapter answers once connected.
    adapterName: options.databaseUrl ? '@prisma/adapter-pg' : 'pglite-prisma-adapter',
    connect: async () => (await opening).database.adapter.connect(),
    connectToShadowDb: async () => (await opening).database.adapter.connectToShadowDb(),
  });
  // Until the open, each statement waits for it; from then on the Sql's methods are the connected one's.
  const sql: Sql = {
    rows: async (text, args) => (await opening).sql.rows(text, args),
    transaction: async (work, transactionOptions) => (await opening).sql.transaction(work, transactionOptions),
    transactionThenRead: async (work, then, transactionOptions) => (await opening).sql.transactionThenRead(work, then, transactionOptions),
  };
  const opened = opening.then(({ sql: { close: _close, ...connected } }) => void Object.assign(sql, connected));
  opened.catch(() => undefined);
  return {
    prisma,
    sql,
    opened,
    async close() {
      const open = await opening.catch(() => undefined);
      if (!open) return;
      await prisma.$disconnect();
      await open.sql.close();
      await open.database.close();
    },
  };
}
