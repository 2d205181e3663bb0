// Makes one app's production bundle: the folder a container image holds and runs (`node dist/server.js`
// from inside it). The Dockerfile and scripts/check-images.mjs both call it, so CI proves what an image
// holds without a Docker engine. Run `pnpm build` first.
//
//   node scripts/bundle-app.mjs <app> <empty or missing folder>
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const { SERVICE_NAMES } = await import(new URL('../packages/shared/dist/index.js', import.meta.url).href);
/** The gateway and every service of the registry (packages/shared/src/service/registry.ts). */
export const APPS = ['gateway', ...SERVICE_NAMES];

/** Writes the bundle of `app` into `dir` (which must be empty or missing) and returns its size in bytes. */
export function bundleApp(app, dir) {
  if (!APPS.includes(app)) throw new Error(`unknown app "${app}": one of ${APPS.join(', ')}`);
  const target = resolve(dir);
  if (existsSync(target) && readdirSync(target).length > 0) throw new Error(`${target} is not empty`);
  if (!existsSync(join(ROOT, 'apps', app, 'dist', 'server.js')))
    throw new Error(`apps/${app}/dist/server.js is missing: run pnpm build first`);
  // --legacy: pnpm 10's default deploy needs inject-workspace-packages. --prod: dependencies only; each
  // package.json's `files` decides what of a workspace package is copied (dist, prisma migrations, bin).
  execFileSync('pnpm', ['--filter', `@ctk/${app}`, 'deploy', '--legacy', '--prod', target], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, CI: 'true' },
  });
  // pnpm hoists the app itself into the virtual store as a link back to apps/<app>: in an image that
  // link would dangle, and here it would let the bundle reach into the repository.
  rmSync(join(target, 'node_modules', '.pnpm', 'node_modules', '@ctk', app), { force: true });
  pruneOtherDatabases(target);
  // The gateway serves the back office's built pages (CTK_BACK_OFFICE_DIR=/app/back-office in its manifest).
  if (app === 'gateway') {
    const pages = join(ROOT, 'apps', 'back-office', 'dist');
    if (!existsSync(join(pages, 'index.html'))) throw new Error('apps/back-office/dist is missing: run pnpm build first');
    cpSync(pages, join(target, 'back-office'), { recursive: true });
  }
  return sizeOf(target);
}

/**
 * @prisma/client ships its query compiler for six databases (about 60 MB of WebAssembly as base64); the
 * generated clients here are PostgreSQL only (`provider = "postgresql"`) and load just the postgresql
 * files, so the others go.
 */
function pruneOtherDatabases(dir) {
  const store = join(dir, 'node_modules', '.pnpm');
  if (!existsSync(store)) return;
  for (const entry of readdirSync(store)) {
    if (!entry.startsWith('@prisma+client@')) continue;
    const runtime = join(store, entry, 'node_modules', '@prisma', 'client', 'runtime');
    if (!existsSync(runtime)) continue;
    for (const file of readdirSync(runtime)) {
      if (/\.(cockroachdb|mysql|sqlite|sqlserver)\./.test(file)) rmSync(join(runtime, file));
    }
  }
}

/** Bytes of the regular files under `dir`, symbolic links not followed (as an image layer counts them). */
export function sizeOf(dir) {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += sizeOf(path);
    else if (entry.isFile()) total += statSync(path).size;
  }
  return total;
}

export const megabytes = (bytes) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [app, dir] = process.argv.slice(2);
  if (!app || !dir) {
    console.error(`usage: node scripts/bundle-app.mjs <${APPS.join('|')}> <folder>`);
    process.exit(2);
  }
  try {
    console.log(`${app}: ${megabytes(bundleApp(app, dir))} in ${resolve(dir)}`);
  } catch (error) {
    console.error(`${app}: ${error.stderr?.toString() || error.message}`);
    process.exit(1);
  }
}
