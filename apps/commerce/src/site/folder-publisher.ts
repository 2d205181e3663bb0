import { randomBytes } from 'node:crypto';
import { link, lstat, mkdir, readdir, readFile, realpath, rename, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { AppError } from '@ctk/shared';
import { manifestJson, MANIFEST_PATH, parseManifest } from './manifest.js';
import type { PublishPlan, Publisher } from './publisher.js';

const errorCode = (error: unknown) => (error as NodeJS.ErrnoException).code;

/**
 * A site in a folder (docs/decisions/0035-site-builder.md): `<root>/<handle>` is a symbolic link to
 * `.versions/<handle>/<manifest digest>/`, a whole version. A publish builds the new version beside the
 * served one (files unchanged are hard links to the served version's, so only what changed is written),
 * then renames a new link over the old one: rename(2) is atomic, so a reader resolves either the old site
 * or the new, never a mix. The `keep` newest versions besides the current one stay; older ones go after
 * the switch.
 */
export function folderPublisher(root: string, handle: string, options: { keep: number; baseUrl?: string }): Publisher {
  const served = join(root, handle);
  const versions = join(root, '.versions', handle);
  return {
    kind: 'folder',
    siteUrl: options.baseUrl ? `${options.baseUrl.replace(/\/+$/, '')}/${handle}/` : pathToFileURL(join(served, 'index.html')).href,
    current: () =>
      folderCall(root, async () => {
        if (!(await servedLink(served))) return undefined;
        return parseManifest(await readFile(join(served, MANIFEST_PATH), 'utf8').catch(() => undefined));
      }),
    apply: (plan) => folderCall(root, () => applyPlan(plan)),
  };

  async function applyPlan(plan: PublishPlan) {
    const target = join(versions, plan.manifest.digest);
    const servedDir = (await servedLink(served)) ? await realpath(served).catch(() => undefined) : undefined;
    if (!(await isVersion(target, plan.manifest.digest))) await writeVersion(versions, target, servedDir, plan);
    // The switch: a new link, renamed over the served one.
    const next = join(root, `.${handle}.${randomBytes(6).toString('hex')}.link`);
    await symlink(relative(root, target), next);
    try {
      await rename(next, served);
    } catch (error) {
      await rm(next, { force: true });
      throw error;
    }
    // Switched: old versions not removed now are removed by the next publish.
    await prune(versions, plan.manifest.digest, options.keep).catch(() => undefined);
  }
}

/** The folder's failures (no space, no permission, a read-only disk) as the API's: 503 naming the cause, nothing switched. */
async function folderCall<T>(root: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof AppError) throw error;
    const code = errorCode(error) ?? 'error';
    throw new AppError('unavailable', `The sites folder (COMMERCE_SITES_DIR, ${root}) could not be used: ${code}. Nothing was switched.`, {
      folder_error: code,
    });
  }
}

/** Whether the served path is a link this service made; a folder or file there is someone else's, refused. */
async function servedLink(served: string): Promise<boolean> {
  try {
    const found = await lstat(served);
    if (found.isSymbolicLink()) return true;
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return false;
    throw error;
  }
  throw new AppError(
    'failed_precondition',
    `${served} is not a site this service published (it is not a link to a version): move it away, then publish again.`,
  );
}

/** A version already written whole (it has its manifest, last written), as a publish of the same content finds it. */
async function isVersion(dir: string, digest: string): Promise<boolean> {
  const manifest = parseManifest(await readFile(join(dir, MANIFEST_PATH), 'utf8').catch(() => undefined));
  return manifest?.digest === digest;
}

/** Writes the version in a temporary folder, then renames it into place: a version folder is whole or absent. */
async function writeVersion(versions: string, target: string, servedDir: string | undefined, plan: PublishPlan) {
  const building = join(versions, `.building-${randomBytes(6).toString('hex')}`);
  const unchanged = new Set(plan.diff.unchanged);
  try {
    for (const file of plan.files) {
      const path = join(building, file.path);
      await mkdir(dirname(path), { recursive: true });
      if (servedDir && unchanged.has(file.path)) {
        // The served version has these bytes: a hard link shares them (a copy where links are not allowed).
        const ok = await link(join(servedDir, file.path), path).then(
          () => true,
          () => false,
        );
        if (ok) continue;
      }
      await writeFile(path, file.body);
    }
    await writeFile(join(building, MANIFEST_PATH), manifestJson(plan.manifest));
    await rm(target, { recursive: true, force: true });
    await rename(building, target);
  } catch (error) {
    await rm(building, { recursive: true, force: true });
    throw error;
  }
}

/** Removes versions older than the `keep` newest besides the current one, and builds left by a crash. */
async function prune(versions: string, current: string, keep: number) {
  const names = await readdir(versions);
  const dated = await Promise.all(
    names
      .filter((name) => name !== current)
      .map(async (name) => ({ name, at: (await stat(join(versions, name))).mtimeMs, building: name.startsWith('.building-') })),
  );
  const old = dated.filter((entry) => !entry.building).sort((a, b) => b.at - a.at);
  const stale = Date.now() - 3600_000;
  const gone = [...old.slice(keep), ...dated.filter((entry) => entry.building && entry.at < stale)];
  for (const entry of gone) await rm(join(versions, entry.name), { recursive: true, force: true });
}
