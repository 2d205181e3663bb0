import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { applyMigrations } from './migrate.js';

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
  kind: 'postgres' | 'pglite';
  appliedMigrations: string[];
  close(): Promise<void>;
};

/** Opens the service's database (PostgreSQL when a URL is configured, PGlite otherwise) and migrates it. */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const database = options.databaseUrl ? openPostgres(options.databaseUrl) : await openPGlite(options);
  database.appliedMigrations = await applyMigrations(database.adapter, options.prismaDir);
  return database;
}

function openPostgres(url: string): Database {
  // One pool for the app and the migration engine, ended on close so no connection outlives the app.
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  return { adapter: new PrismaPg(pool), kind: 'postgres', appliedMigrations: [], close: () => pool.end() };
}

async function openPGlite(options: DatabaseOptions): Promise<Database> {
  let pglite: PGlite;
  if (options.dataDir === ':memory:') {
    pglite = new PGlite();
  } else {
    const dir = resolve(join(options.dataDir, options.service));
    await mkdir(dir, { recursive: true });
    pglite = new PGlite(dir);
  }
  await pglite.waitReady;
  const adapter = new PrismaPGlite(pglite) as unknown as SqlMigrationAwareDriverAdapterFactory;
  return { adapter, kind: 'pglite', appliedMigrations: [], close: () => pglite.close() };
}
