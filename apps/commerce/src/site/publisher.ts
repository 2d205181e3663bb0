import { diffManifests, manifestOf, type Manifest, type ManifestDiff } from './manifest.js';
import type { SiteFile } from './site-source.js';

/** What a target is told to do: the new version's files and manifest, and what differs from the one it serves. */
export type PublishPlan = { files: SiteFile[]; manifest: Manifest; diff: ManifestDiff };

/** Where a site is published: a folder, or a bucket (docs/decisions/0035-site-builder.md). */
export type Publisher = {
  kind: 'folder' | 's3';
  /** Where the published home page is. */
  siteUrl: string;
  /** The manifest of the version the target serves now, as it has it; undefined when it serves none. */
  current(): Promise<Manifest | undefined>;
  /** Writes what changed, switches to the new version (a reader sees the old one whole until then), then removes what it no longer needs. */
  apply(plan: PublishPlan): Promise<void>;
};

export type Published = { manifest: Manifest; uploaded: number; unchanged: number; deleted: number };

/** Publishes `files` to a target: only what differs from the manifest it serves; nothing at all when nothing does. */
export async function publishFiles(publisher: Publisher, files: SiteFile[]): Promise<Published> {
  const manifest = manifestOf(files);
  const previous = await publisher.current();
  const diff = diffManifests(previous, manifest);
  if (previous?.digest === manifest.digest) return { manifest, uploaded: 0, unchanged: files.length, deleted: 0 };
  await publisher.apply({ files, manifest, diff });
  return { manifest, uploaded: diff.changed.length, unchanged: diff.unchanged.length, deleted: diff.removed.length };
}
