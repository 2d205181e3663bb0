import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a script of the repository, in JavaScript without types.
import { startBundle } from '../../scripts/start-bundle.mjs';

/** A checkout with a module, its bundled file and the manifest scripts/bundle-start.mjs writes, made at `madeAt`. */
function checkout(madeAt: number) {
  const root = mkdtempSync(join(tmpdir(), 'ctk-start-bundle-'));
  mkdirSync(join(root, 'apps/books/dist'), { recursive: true });
  mkdirSync(join(root, 'dist/start'), { recursive: true });
  const module = join(root, 'apps/books/dist/app.js');
  writeFileSync(module, 'export const service = {};\n');
  utimesSync(module, new Date(madeAt - 60_000), new Date(madeAt - 60_000));
  const manifest = { madeAt, modules: { 'apps/books/dist/app.js': 'apps_books_dist_app.mjs' }, inputs: ['apps/books/dist/app.js'] };
  writeFileSync(join(root, 'dist/start/manifest.json'), JSON.stringify(manifest));
  return { root, module };
}

describe("start-all's bundle (scripts/start-bundle.mjs)", () => {
  const roots: string[] = [];
  afterAll(() => roots.forEach((root) => rmSync(root, { recursive: true, force: true })));

  it('is used while no module it was made from changed since', () => {
    const { root } = checkout(Date.now());
    roots.push(root);
    expect(startBundle(root)).toEqual({
      modules: { 'apps/books/dist/app.js': pathToFileURL(join(root, 'dist/start/apps_books_dist_app.mjs')).href },
    });
  });

  it('is not used once a module it holds was built again, or was removed, or when there is none', () => {
    const built = checkout(Date.now() - 10_000);
    roots.push(built.root);
    writeFileSync(built.module, 'export const service = { changed: true };\n');
    expect(startBundle(built.root)).toEqual({
      reason: 'apps/books/dist/app.js changed since dist/start was made (pnpm build makes it again)',
    });

    const removed = checkout(Date.now());
    roots.push(removed.root);
    rmSync(removed.module);
    expect(startBundle(removed.root).reason).toMatch(/^apps\/books\/dist\/app\.js changed since/);

    rmSync(join(removed.root, 'dist/start'), { recursive: true });
    expect(startBundle(removed.root)).toEqual({ reason: 'dist/start is missing (pnpm build makes it)' });
  });
});
