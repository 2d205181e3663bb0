import { createHash, randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { bindMigrationAwareSqlAdapterFactory, type SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import type { SchemaEngine as SchemaEngineType } from '@prisma/schema-engine-wasm';

/** An embedded database's statements: rows of a query with parameters, and a script sent as one simple query. */
export type EmbeddedStatements = {
  rows(sql: string, params?: unknown[]): Promise<unknown[][]>;
  script(sql: string): Promise<void>;
};

/** Where migrations run: a PostgreSQL server's database (a connection of its own), or an embedded database. */
export type MigrationTarget = { postgresUrl: string } | { embedded: EmbeddedStatements };

/** One connection: queries with parameters, and scripts sent as one simple query (one implicit transaction). */
type Connection = EmbeddedStatements & { close(): Promise<void> };

/**
 * prisma migrate's advisory lock key: a `prisma migrate deploy` run beside these waits for them, and they for it.
 * Held for the whole run on the run's own connection, so replicas started at once migrate one after another
 * and the later ones find nothing to do; a replica killed mid-run ends its session, which releases it.
 */
export const MIGRATION_LOCK = 72707369;

/** The table `prisma migrate deploy` keeps, as it makes it. */
const MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

/**
 * Applies `prisma/migrations/<name>/migration.sql` in the order of their names, recording each in
 * `_prisma_migrations` as `prisma migrate deploy` does, and returns the names applied. Each migration and its
 * record are one transaction (the SQL and the record sent as one script): a migration is applied and recorded,
 * or neither, whatever fails or is killed part-way. Against PostgreSQL it holds the migration lock throughout
 * (MIGRATION_LOCK). A migration recorded as started and not finished (left by an earlier version, which
 * applied through Prisma's schema engine statement by statement) stops the start with what to do. See
 * docs/decisions/0002-migrations.md.
 */
export async function applyMigrations(target: MigrationTarget, prismaDir: string): Promise<string[]> {
  const migrations = await migrationNames(prismaDir);
  const connection = await connect(target);
  try {
    // Most starts find every migration applied: one query tells, with no lock taken and no migration's SQL read.
    if ((await unapplied(connection, migrations))?.length === 0) return [];
    await connection.rows('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await connection.script(MIGRATIONS_TABLE);
    const applied: string[] = [];
    for (const name of (await unapplied(connection, migrations)) ?? []) {
      const { sql, checksum } = await migrationSql(prismaDir, name);
      const id = randomUUID();
      const record = `INSERT INTO "_prisma_migrations" ("id", "checksum", "migration_name", "started_at", "finished_at", "applied_steps_count")
VALUES ('${id}', '${checksum}', '${name}', now(), now(), 1)`;
      // The record first: a migration's SQL may end in a comment without a line break.
      await connection.script(`${record};\n${sql}`).catch((error: unknown) => {
        throw new Error(`migration ${name} failed, and nothing of it was applied: ${(error as Error).message}`, { cause: error });
      });
      applied.push(name);
    }
    return applied;
  } finally {
    await connection.close();
  }
}

/**
 * The migrations of `<prismaDir>/migrations` that `_prisma_migrations` does not record as applied, by name
 * (an applied migration edited since is not applied again, as with `prisma migrate deploy`). Undefined when
 * the database has no such table yet.
 */
export async function pendingMigrations(target: MigrationTarget, prismaDir: string): Promise<string[] | undefined> {
  const connection = await connect(target);
  try {
    return await unapplied(connection, await migrationNames(prismaDir));
  } finally {
    await connection.close();
  }
}

/** The names of `migrations` that `_prisma_migrations` does not record as applied; undefined without that table yet. */
async function unapplied(connection: Connection, migrations: string[]): Promise<string[] | undefined> {
  const rows = await connection
    .rows('SELECT migration_name, finished_at IS NOT NULL FROM _prisma_migrations WHERE rolled_back_at IS NULL')
    .catch(() => undefined);
  if (!rows) return undefined;
  const unfinished = rows.filter(([, finished]) => finished !== true).map(([name]) => String(name));
  if (unfinished.length)
    throw new Error(
      `migration ${unfinished.join(', ')} is recorded as started and not finished, so it may be partly applied: ` +
        'check the database against its SQL, then mark it rolled back (UPDATE _prisma_migrations SET rolled_back_at = now() ' +
        'WHERE finished_at IS NULL) to apply it again, or finished (SET finished_at = now()) if it is all there',
    );
  const applied = new Set(rows.map(([name]) => String(name)));
  return migrations.filter((name) => !applied.has(name));
}

/** The migrations of `<prismaDir>/migrations`: their folders' names, in order. */
async function migrationNames(prismaDir: string): Promise<string[]> {
  const entries = await readdir(join(prismaDir, 'migrations'), { withFileTypes: true }).catch(() => []);
  const names = entries
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  const odd = names.find((name) => !/^[\w.-]+$/.test(name));
  // Its name goes into the record's SQL: letters, digits, _, . and - only, as prisma's own names are.
  if (odd) throw new Error(`migration folder "${odd}" is not a migration's name (letters, digits, _, . and -)`);
  return names;
}

/** A migration's SQL, read to apply it, with the checksum prisma records (sha256 of it). */
async function migrationSql(prismaDir: string, name: string): Promise<{ sql: string; checksum: string }> {
  const sql = await readFile(join(prismaDir, 'migrations', name, 'migration.sql'), 'utf8');
  return { sql, checksum: createHash('sha256').update(sql).digest('hex') };
}

async function connect(target: MigrationTarget): Promise<Connection> {
  if ('embedded' in target) {
    const { embedded } = target;
    // The database is the caller's: the session lock is released by hand.
    return { ...embedded, close: async () => void (await embedded.rows('SELECT pg_advisory_unlock_all()')) };
  }
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: target.postgresUrl });
  await client.connect();
  return {
    rows: async (sql, params) => (await client.query<unknown[]>({ text: sql, values: params, rowMode: 'array' })).rows,
    // No parameters: the simple query protocol, whose statements PostgreSQL runs as one transaction.
    script: async (sql) => void (await client.query(sql)),
    // Ending the session releases its lock.
    close: () => client.end(),
  };
}

/** SQL that takes a database from the `from` schema (or nothing) to the `to` schema. */
export async function diffSchemas(
  adapterFactory: SqlMigrationAwareDriverAdapterFactory,
  prismaDir: string,
  from: string | undefined,
  to: string,
): Promise<string> {
  const engine = await openEngine(adapterFactory, prismaDir);
  try {
    const fromTarget =
      from === undefined ? { tag: 'empty' as const } : { tag: 'schemaDatamodel' as const, files: [{ path: 'from.prisma', content: from }] };
    const result = await engine.diff({
      from: fromTarget,
      to: { tag: 'schemaDatamodel', files: [{ path: 'schema.prisma', content: to }] },
      script: true,
      exitCode: null,
      filters: NO_FILTERS,
    });
    return result.stdout ?? '';
  } finally {
    engine.free();
  }
}

const NO_FILTERS = { externalTables: [], externalEnums: [] };

async function openEngine(adapterFactory: SqlMigrationAwareDriverAdapterFactory, prismaDir: string) {
  const SchemaEngine = await loadSchemaEngine();
  const schemaPath = join(prismaDir, 'schema.prisma');
  const schema = await readFile(schemaPath, 'utf8');
  const adapter = bindMigrationAwareSqlAdapterFactory(adapterFactory);
  return SchemaEngine.new({ datamodels: [[schemaPath, schema]] }, () => {}, adapter);
}

// @types/node 20 does not declare the WebAssembly global; this is the one call used.
declare const WebAssembly: {
  instantiate(bytes: Uint8Array, imports: Record<string, unknown>): Promise<{ instance: { exports: unknown } }>;
};

let engineClass: Promise<typeof SchemaEngineType> | undefined;

/**
 * The package is built for bundlers (it imports its .wasm file as a module, which Node cannot);
 * this instantiates the WebAssembly module by hand and hands it to the generated bindings.
 */
function loadSchemaEngine(): Promise<typeof SchemaEngineType> {
  engineClass ??= (async () => {
    const bindings = await import('@prisma/schema-engine-wasm/schema_engine_bg');
    const wasmPath = createRequire(import.meta.url)
      .resolve('@prisma/schema-engine-wasm/schema_engine_bg')
      .replace(/\.js$/, '.wasm');
    const { instance } = await WebAssembly.instantiate(await readFile(wasmPath), { './schema_engine_bg.js': bindings });
    const exports = instance.exports as { __wbindgen_start(): void };
    (bindings as unknown as { __wbg_set_wasm(wasm: unknown): void }).__wbg_set_wasm(exports);
    exports.__wbindgen_start();
    return bindings.SchemaEngine;
  })();
  return engineClass;
}
