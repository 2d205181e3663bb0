import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { bindMigrationAwareSqlAdapterFactory, type SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import type { SchemaEngine as SchemaEngineType } from '@prisma/schema-engine-wasm';

/**
 * Applies `prisma/migrations/<name>/migration.sql` in order, recording them in `_prisma_migrations`
 * like `prisma migrate deploy` does. The Prisma CLI cannot migrate offline (it downloads a native
 * engine), so this drives the WebAssembly build of the same schema engine through a driver adapter:
 * the same code path migrates PGlite and PostgreSQL. See docs/decisions/0002-migrations.md.
 */
export async function applyMigrations(adapterFactory: SqlMigrationAwareDriverAdapterFactory, prismaDir: string): Promise<string[]> {
  // Most starts find every migration applied: one query tells, where loading the engine takes a few hundred ms.
  if ((await pendingMigrations(adapterFactory, prismaDir))?.length === 0) return [];
  const engine = await openEngine(adapterFactory, prismaDir);
  try {
    const migrationsList = await readMigrations(join(prismaDir, 'migrations'));
    const result = await engine.applyMigrations({ migrationsList, filters: NO_FILTERS });
    return result.appliedMigrationNames;
  } finally {
    engine.free();
  }
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

/**
 * The migrations of `<prismaDir>/migrations` that `_prisma_migrations` does not record as finished with the
 * checksum of their SQL as it is now (the engine's: sha256). None: the engine would apply nothing, and need
 * not be loaded. Undefined when the engine must look anyway: no table yet (it makes one), or a migration
 * recorded as failed (it refuses to go on).
 */
export async function pendingMigrations(
  adapterFactory: SqlMigrationAwareDriverAdapterFactory,
  prismaDir: string,
): Promise<string[] | undefined> {
  const { migrationDirectories } = await readMigrations(join(prismaDir, 'migrations'));
  const connection = await adapterFactory.connect();
  try {
    const { rows } = await connection
      .queryRaw({
        sql: 'SELECT migration_name, checksum, finished_at IS NOT NULL FROM _prisma_migrations WHERE rolled_back_at IS NULL',
        args: [],
        argTypes: [],
      })
      .catch(() => ({ rows: undefined }));
    if (!rows || rows.some(([, , finished]) => finished !== true)) return undefined;
    const applied = new Set(rows.map(([name, checksum]) => `${String(name)} ${String(checksum)}`));
    const checksum = (sql: string) => createHash('sha256').update(sql).digest('hex');
    return migrationDirectories
      .filter(({ path, migrationFile }) => !applied.has(`${path} ${checksum(migrationFile.content.value)}`))
      .map(({ path }) => path);
  } finally {
    await connection.dispose();
  }
}

async function openEngine(adapterFactory: SqlMigrationAwareDriverAdapterFactory, prismaDir: string) {
  const SchemaEngine = await loadSchemaEngine();
  const schemaPath = join(prismaDir, 'schema.prisma');
  const schema = await readFile(schemaPath, 'utf8');
  const adapter = bindMigrationAwareSqlAdapterFactory(adapterFactory);
  return SchemaEngine.new({ datamodels: [[schemaPath, schema]] }, () => {}, adapter);
}

async function readMigrations(baseDir: string) {
  const entries = await readdir(baseDir, { withFileTypes: true }).catch(() => []);
  const names = entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  const migrationDirectories = await Promise.all(
    names.map(async (name) => ({
      path: name,
      migrationFile: {
        path: 'migration.sql',
        content: { tag: 'ok' as const, value: await readFile(join(baseDir, name, 'migration.sql'), 'utf8') },
      },
    })),
  );
  return {
    baseDir,
    lockfile: { path: 'migration_lock.toml', content: 'provider = "postgresql"\n' },
    shadowDbInitScript: '',
    migrationDirectories,
  };
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
