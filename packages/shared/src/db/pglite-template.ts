import { createHash } from 'node:crypto';
import { existsSync, openAsBlob, readFileSync } from 'node:fs';
import { link, mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';

/**
 * A migrated database, kept to be copied. Tests open hundreds of new databases of a few schemas, and each
 * e2e instance a new data dir: making one (PGlite's initdb, then every migration) takes seconds of CPU,
 * loading a copy of a migrated one under one. The first new in-memory database of a schema (a test's) keeps
 * its migrated data dir in the machine's temp folder, named by the hash of its migrations, PGlite's version
 * and initdb's parameters; later new ones, in memory or on disk and in any process, load that copy. A changed
 * or added migration is another name, so a copy is never stale. The first new database of all, in memory or
 * on disk, keeps the empty one too (emptyTemplate), so a schema with no copy yet skips initdb all the same.
 * The folder is used only while it is the user's own and no one else may write in it.
 */
export type PGliteTemplate = { key: string; dir: string };

const PGLITE_VERSION = versionOf('@electric-sql/pglite');

/**
 * The template of the schema whose migrations are in `<prismaDir>/migrations`, kept in `dir` (by default the
 * folder under this thread's temp folder; the embedded databases' thread is told its opener's).
 */
export async function templateOf(prismaDir: string, dir = templatesDir()): Promise<PGliteTemplate> {
  const hash = templateHash();
  const migrations = join(prismaDir, 'migrations');
  // No migrations folder: a schema with nothing to apply.
  for (const name of (await readdir(migrations).catch(() => [])).sort()) {
    hash.update(`\0${name}\0`);
    if (name.endsWith('.toml')) continue;
    hash.update(await readFile(join(migrations, name, 'migration.sql')).catch(() => ''));
  }
  return { key: hash.digest('hex').slice(0, 32), dir };
}

/**
 * A database made and nothing applied: what PGlite's initdb makes, the same for every schema (a schema with no
 * migrations has this one's name). initdb takes most of a new database's seconds, so a schema with no
 * template yet starts from this copy and only applies its migrations.
 */
export function emptyTemplate(dir = templatesDir()): PGliteTemplate {
  return { key: templateHash().digest('hex').slice(0, 32), dir };
}

/**
 * What PGlite's initdb is given: WAL segments of 1 MB rather than PostgreSQL's 16 MB, which initdb writes out
 * in full and every copy then carries (a new database is about 31 MB rather than 41 MB: an initdb in about half
 * the time, a copy loaded and kept in under half). Part of every template's name, as PGlite's version is.
 */
export const INITDB_PARAMS = ['--wal-segsize=1'];

const templateHash = () =>
  createHash('sha256')
    .update(PGLITE_VERSION)
    .update(`\0${INITDB_PARAMS.join(' ')}`);
/** Where templates are kept: a folder of the temp folder (TMPDIR), which tests set to one of their own. */
export const templatesDir = () => join(tmpdir(), 'ctk-pglite-templates');

/**
 * The kept copy and the migrations it holds, or null when there is none yet (or it cannot be read). The copy is a
 * Blob backed by its file, read once, by PGlite as it loads it: a kept copy is never replaced (keepTemplate). A
 * copy removed by hand in between fails that one open; the next makes its database afresh.
 */
export async function loadTemplate(template: PGliteTemplate): Promise<{ dataDir: Blob; applied: string[] } | null> {
  try {
    if (!(await ownFolder(template.dir))) return null;
    const [dataDir, applied] = await Promise.all([
      openAsBlob(join(template.dir, `${template.key}.tar`)),
      readFile(join(template.dir, `${template.key}.json`), 'utf8'),
    ]);
    return { dataDir, applied: JSON.parse(applied) as string[] };
  } catch {
    return null;
  }
}

/**
 * Keeps a copy of a database just migrated. Written under a temporary name and then linked to its own, so a
 * concurrent reader sees the whole copy or none. The first copy of a name stays: two processes keeping one
 * schema's copy at once make the same bytes, and the second link finds the first's file there and leaves it,
 * so that a copy another process opened is never replaced under it.
 */
export async function keepTemplate(template: PGliteTemplate, pglite: PGlite, applied: string[]): Promise<void> {
  const tar = join(template.dir, `${template.key}.tar`);
  const partial = `${tar}.${process.pid}.${Date.now()}`;
  try {
    await mkdir(template.dir, { recursive: true, mode: 0o700 });
    if (!(await ownFolder(template.dir))) return;
    await writeFile(join(template.dir, `${template.key}.json`), JSON.stringify(applied));
    await writeFile(partial, (await pglite.dumpDataDir('none')).stream());
    await link(partial, tar).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw error;
    });
  } catch {
    // Only a saving: the next open migrates a fresh database again.
  } finally {
    await rm(partial, { force: true });
  }
}

/**
 * Whether the folder is this user's and no one else may write in it: the temp folder is shared, and a copy
 * another account left there must never become a merchant's database.
 */
async function ownFolder(dir: string): Promise<boolean> {
  const info = await stat(dir);
  return info.isDirectory() && (process.getuid === undefined || info.uid === process.getuid()) && (info.mode & 0o022) === 0;
}

/** The installed version of a package that does not export its package.json: read from its folder. */
function versionOf(name: string): string {
  let dir = dirname(createRequire(import.meta.url).resolve(name));
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version?: string }).version ?? '';
}
