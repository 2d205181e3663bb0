import { createHash } from 'node:crypto';
import type { SiteFile } from './site-source.js';

/** The manifest a published site carries as manifest.json: each file's path and sha256, and the digest of that list. */
export type Manifest = { files: Record<string, string>; digest: string };

export const MANIFEST_PATH = 'manifest.json';

export const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

/** The files' manifest: paths in code-point order, so the same files always give the same digest. */
export function manifestOf(files: readonly SiteFile[]): Manifest {
  const entries = files.map((file) => [file.path, sha256(file.body)] as const).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const list = Object.fromEntries(entries);
  return { files: list, digest: sha256(JSON.stringify(list)) };
}

/** manifest.json's bytes: the digest, then the files. */
export function manifestJson(manifest: Manifest): Buffer {
  return Buffer.from(`${JSON.stringify({ digest: manifest.digest, files: manifest.files }, null, 2)}\n`);
}

/** A manifest read back from a target; undefined when it is not one (missing, damaged, its digest not its files'). */
export function parseManifest(text: string | undefined): Manifest | undefined {
  if (text === undefined) return undefined;
  try {
    const parsed = JSON.parse(text) as { digest?: unknown; files?: unknown };
    if (typeof parsed.files !== 'object' || parsed.files === null || Array.isArray(parsed.files)) return undefined;
    const files = parsed.files as Record<string, unknown>;
    if (!Object.values(files).every((hash) => typeof hash === 'string' && /^[0-9a-f]{64}$/.test(hash))) return undefined;
    const sorted = Object.fromEntries(Object.entries(files as Record<string, string>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    const digest = sha256(JSON.stringify(sorted));
    return parsed.digest === digest ? { files: sorted, digest } : undefined;
  } catch {
    return undefined;
  }
}

/** What a publish writes: the files new or changed since `previous`, those the target has as they are, and those it no longer needs. */
export type ManifestDiff = { changed: string[]; unchanged: string[]; removed: string[] };

export function diffManifests(previous: Manifest | undefined, next: Manifest): ManifestDiff {
  const before = previous?.files ?? {};
  const paths = Object.keys(next.files);
  return {
    changed: paths.filter((path) => before[path] !== next.files[path]),
    unchanged: paths.filter((path) => before[path] === next.files[path]),
    removed: Object.keys(before).filter((path) => !(path in next.files)),
  };
}
