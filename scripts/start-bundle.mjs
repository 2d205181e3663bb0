// Which of start-all's modules it loads from the bundle scripts/bundle-start.mjs made (dist/start, decision 0061):
// all of them while no file the bundle was made from changed since, else none (the apps' dist, as they are).
import { readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * The bundle's file URL of each module (its path from the root, as start-all names it), or the reason there is none
 * to use: no bundle (a build of some packages alone), or one older than a file it holds (a package built since).
 */
export function startBundle(root) {
  const dir = join(root, 'dist', 'start');
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
  } catch {
    return { reason: 'dist/start is missing (pnpm build makes it)' };
  }
  const changed = manifest.inputs.find(
    (input) => (statSync(resolve(root, input), { throwIfNoEntry: false })?.mtimeMs ?? Infinity) > manifest.madeAt,
  );
  if (changed) return { reason: `${changed} changed since dist/start was made (pnpm build makes it again)` };
  return {
    modules: Object.fromEntries(Object.entries(manifest.modules).map(([path, file]) => [path, pathToFileURL(join(dir, file)).href])),
  };
}
