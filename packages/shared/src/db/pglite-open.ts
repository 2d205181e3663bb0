import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { applyMigrations, type EmbeddedStatements } from './migrate.js';
import { emptyTemplate, INITDB_PARAMS, keepTemplate, loadTemplate, templateOf, type PGliteTemplate } from './pglite-template.js';

/** What opens an embedded database: its folder (`:memory:` for one in memory), its migrations, where templates are kept. */
export type EmbeddedOptions = {
  /** The database's folder (an absolute path), or `:memory:`. */
  dir: string;
  /** The app's `prisma/` folder, holding migrations/. */
  prismaDir: string;
  /**
   * The folder of kept templates (pglite-template.ts) under the caller's temp folder: a test sets TMPDIR, and the
   * databases' thread, started earlier, keeps the environment it started with.
   */
  templatesDir: string;
};

/**
 * An embedded database's shared memory, which every open of PGlite zeroes page by page in WebAssembly:
 * PostgreSQL's defaults (128 MB of shared buffers, 100 connections) make 145 MB, and 32 MB of buffers 42 MB (a
 * third of an open's CPU). 8 MB of buffers and 5 connections (PGlite has one; 3 are kept for superusers) make
 * 12 MB, for a shop's few megabytes of data: about 0.8 s off a warm start of seven databases (decision 0056).
 */
const PGLITE_SETTINGS = { postgresqlconf: ['shared_buffers = 8MB', 'max_connections = 5'], initDbStartParams: INITDB_PARAMS };

/** A PGlite database's statements as migrations send them. */
export function statementsOf(pglite: PGlite): EmbeddedStatements {
  return {
    rows: async (sql, params) => (await pglite.query<unknown[]>(sql, params, { rowMode: 'array' })).rows,
    script: async (sql) => void (await pglite.exec(sql)),
  };
}

/**
 * Opens an embedded database and migrates it; the migrations it holds are those applied now, or those of the
 * template it was copied from.
 */
export async function openEmbedded(options: EmbeddedOptions): Promise<{ pglite: PGlite; appliedMigrations: string[] }> {
  return options.dir === ':memory:' ? openMemoryCopy(options) : openInFolder(options);
}

/**
 * An in-memory database (tests): a copy of the schema's migrated template when one is kept, else a fresh
 * one migrated and then kept as the template (pglite-template.ts). Its applied migrations are those the
 * template was made with: a fresh database had them all applied, either way.
 */
async function openMemoryCopy({ prismaDir, templatesDir }: EmbeddedOptions) {
  const template = await templateOf(prismaDir, templatesDir);
  const kept = await loadTemplate(template);
  const empty = kept ? undefined : await startingEmpty(templatesDir);
  const copied = kept ?? empty?.kept;
  const pglite = new PGlite({ ...PGLITE_SETTINGS, ...(copied ? { loadDataDir: copied.dataDir } : {}) });
  try {
    await pglite.waitReady;
    if (kept) return { pglite, appliedMigrations: kept.applied };
    await empty?.keepIfMade(pglite);
    const appliedMigrations = await applyMigrations({ embedded: statementsOf(pglite) }, prismaDir);
    await keepTemplate(template, pglite, appliedMigrations);
    return { pglite, appliedMigrations };
  } catch (error) {
    await pglite.close().catch(() => undefined);
    throw error;
  }
}

/**
 * The service's database in its folder. A new one starts as a copy of the schema's migrated template when
 * one is kept (pglite-template.ts), as an in-memory one does: a first start, or each e2e instance, then skips
 * initdb and the migrations it would apply. With none kept, it starts from the empty copy and is migrated, and
 * is not kept itself: keeping a copy costs a first start more than a template saves a later data dir (tests,
 * which open hundreds, keep them).
 */
async function openInFolder(options: EmbeddedOptions) {
  const { dir } = options;
  await mkdir(dir, { recursive: true });
  const template = existsSync(join(dir, 'PG_VERSION')) ? undefined : await templateOf(options.prismaDir, options.templatesDir);
  const kept = template && (await loadTemplate(template));
  const empty = template && !kept ? await startingEmpty(options.templatesDir) : undefined;
  const copied = kept || empty?.kept;
  const pglite = new PGlite(dir, { ...PGLITE_SETTINGS, ...(copied ? { loadDataDir: copied.dataDir } : {}) });
  try {
    await pglite.waitReady;
    await empty?.keepIfMade(pglite);
    const applied = await applyMigrations({ embedded: statementsOf(pglite) }, options.prismaDir);
    return { pglite, appliedMigrations: [...(kept ? kept.applied : []), ...applied] };
  } catch (error) {
    await pglite.close().catch(() => undefined);
    throw error;
  }
}

/**
 * A new database of a schema with no template yet starts as a copy of the empty one (pglite-template.ts), or,
 * with none kept either, is made by initdb and kept as the empty one before its migrations.
 */
async function startingEmpty(templatesDir: string) {
  const template: PGliteTemplate = emptyTemplate(templatesDir);
  const kept = await loadTemplate(template);
  return { kept, keepIfMade: async (pglite: PGlite) => (kept ? undefined : keepTemplate(template, pglite, [])) };
}
