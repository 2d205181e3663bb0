import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import { connectSql, type Sql } from './sql.js';
import { applyMigrations, type MigrationTarget } from './migrate.js';
import { emptyTemplate, INITDB_PARAMS, keepTemplate, loadTemplate, templateOf, type PGliteTemplate } from './pglite-template.js';
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
 * An embedded database's shared memory, which every open of PGlite zeroes page by page in WebAssembly:
 * PostgreSQL's defaults (128 MB of shared buffers, 100 connections) make 145 MB, and 32 MB of buffers 42 MB (a
 * third of an open's CPU). 8 MB of buffers and 5 connections (PGlite has one; 3 are kept for superusers) make
 * 12 MB, for a shop's few megabytes of data: about 0.8 s off a warm start of seven databases (decision 0056).
 */
const PGLITE_SETTINGS = { postgresqlconf: ['shared_buffers = 8MB', 'max_connections = 5'], initDbStartParams: INITDB_PARAMS };

/*
 * Each driver is loaded by the first database that uses it: an app on PostgreSQL does not load PGlite, nor one
 * on PGlite pg's adapter (a tenth of a second each of a start).
 */
async function loadPGlite() {
  const [{ PGlite }, { PrismaPGlite }] = await Promise.all([import('@electric-sql/pglite'), import('pglite-prisma-adapter')]);
  return { PGlite, PrismaPGlite };
}
type PGliteDriver = Awaited<ReturnType<typeof loadPGlite>>;

/** Opens the service's database (PostgreSQL when a URL is configured, PGlite otherwise) and migrates it. */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (!options.databaseUrl && options.dataDir === ':memory:') return openMemoryCopy(options.prismaDir);
  const database = options.databaseUrl ? await openPostgres(options.databaseUrl) : await openPGlite(options);
  try {
    const applied = await applyMigrations(database.migrations, options.prismaDir);
    database.appliedMigrations = [...database.appliedMigrations, ...applied];
  } catch (error) {
    await database.close().catch(() => undefined);
    throw error;
  }
  return database;
}

/**
 * An in-memory database (tests): a copy of the schema's migrated template when one is kept, else a fresh
 * one migrated and then kept as the template (pglite-template.ts). Its applied migrations are those the
 * template was made with: a fresh database had them all applied, either way.
 */
async function openMemoryCopy(prismaDir: string): Promise<Database> {
  const template = await templateOf(prismaDir);
  const kept = await loadTemplate(template);
  const empty = kept ? undefined : await startingEmpty();
  const driver = await loadPGlite();
  const copied = kept ?? empty?.kept;
  const pglite = new driver.PGlite({ ...PGLITE_SETTINGS, ...(copied ? { loadDataDir: copied.dataDir } : {}) });
  try {
    await pglite.waitReady;
    const database = pgliteDatabase(driver, pglite);
    if (kept) database.appliedMigrations = kept.applied;
    else {
      await empty?.keepIfMade(pglite);
      database.appliedMigrations = await applyMigrations(database.migrations, prismaDir);
      await keepTemplate(template, pglite, database.appliedMigrations);
    }
    return database;
  } catch (error) {
    await pglite.close().catch(() => undefined);
    throw error;
  }
}

async function openPostgres(url: string): Promise<Database> {
  const { PrismaPg } = await import('@prisma/adapter-pg');
  // The app's pool, ended on close so no connection outlives the app; migrations run on a connection of their own.
  // Each statement is prepared once per connection (statement-names.ts).
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  return {
    adapter: new PrismaPg(pool, { statementNameGenerator: statementNames() }),
    migrations: { postgresUrl: url },
    kind: 'postgres',
    appliedMigrations: [],
    close: () => pool.end(),
  };
}

/**
 * The service's database in its folder. A new one starts as a copy of the schema's migrated template when
 * one is kept (pglite-template.ts), as an in-memory one does: a first start, or each e2e instance, then skips
 * initdb and the migrations it would apply. With none kept, it starts from the empty copy and is migrated, and
 * is not kept itself: keeping a copy costs a first start more than a template saves a later data dir (tests,
 * which open hundreds, keep them).
 */
async function openPGlite(options: DatabaseOptions): Promise<Database> {
  const dir = resolve(join(options.dataDir, options.service));
  await mkdir(dir, { recursive: true });
  const template = existsSync(join(dir, 'PG_VERSION')) ? undefined : await templateOf(options.prismaDir);
  const kept = template && (await loadTemplate(template));
  const empty = template && !kept ? await startingEmpty() : undefined;
  const driver = await loadPGlite();
  const copied = kept || empty?.kept;
  const pglite = new driver.PGlite(dir, { ...PGLITE_SETTINGS, ...(copied ? { loadDataDir: copied.dataDir } : {}) });
  try {
    await pglite.waitReady;
    await empty?.keepIfMade(pglite);
  } catch (error) {
    await pglite.close().catch(() => undefined);
    throw error;
  }
  const database = pgliteDatabase(driver, pglite);
  if (kept) database.appliedMigrations = kept.applied;
  return database;
}

/**
 * A new database of a schema with no template yet starts as a copy of the empty one (pglite-template.ts), or,
 * with none kept either, is made by initdb and kept as the empty one before its migrations.
 */
async function startingEmpty(): Promise<{ kept: Awaited<ReturnType<typeof loadTemplate>>; keepIfMade(pglite: PGlite): Promise<void> }> {
  const template: PGliteTemplate = emptyTemplate();
  const kept = await loadTemplate(template);
  return { kept, keepIfMade: async (pglite) => (kept ? undefined : keepTemplate(template, pglite, [])) };
}

function pgliteDatabase(driver: PGliteDriver, pglite: PGlite): Database {
  const adapter = new driver.PrismaPGlite(pglite) as unknown as SqlMigrationAwareDriverAdapterFactory;
  return { adapter, migrations: { pglite }, kind: 'pglite', appliedMigrations: [], close: () => pglite.close() };
}

/** Opens and migrates the database, then builds the app's Prisma client on it; close() ends both. */
export async function openPrisma<P extends { $disconnect(): Promise<void> }>(
  options: DatabaseOptions,
  createClient: (adapter: SqlMigrationAwareDriverAdapterFactory) => P,
): Promise<{ prisma: P; sql: Sql; close(): Promise<void> }> {
  const database = await openDatabase(options);
  const prisma = createClient(database.adapter);
  const sql = await connectSql(database.adapter);
  return {
    prisma,
    sql,
    async close() {
      await prisma.$disconnect();
      await sql.close();
      await database.close();
    },
  };
}
