// What each container image holds, proven without a Docker engine: for every app, the production bundle
// the Dockerfile copies (scripts/bundle-app.mjs) is made in a clean temporary folder outside the
// repository, started from that folder alone with a minimal environment, asked for its health, stopped,
// and checked to have written nothing into itself (the manifests mount the root filesystem read-only).
// One line per app; exits 1 if any fails. Run `pnpm build` first.
//
//   node scripts/check-images.mjs [app ...]
import { spawn } from 'node:child_process';
import { existsSync, lstatSync, mkdtempSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { freePort } from '../packages/shared/dist/testing/free-port.js';
import { APPS, bundleApp, megabytes } from './bundle-app.mjs';

// The helper the tests use; it lives in the repository, but only this checker loads it, never the app.
const { grpcHealthStatus } = await import('../packages/shared/dist/testing/grpc-health.js');

const STARTUP_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 10_000;

const apps = process.argv.slice(2).length ? process.argv.slice(2) : APPS;
for (const app of apps) if (!APPS.includes(app)) throw new Error(`unknown app "${app}": one of ${APPS.join(', ')}`);

let failed = 0;
for (const app of apps) {
  const work = mkdtempSync(join(tmpdir(), `ctk-image-${app}-`));
  const started = Date.now();
  let size = '';
  try {
    const bundle = join(work, 'app');
    size = megabytes(bundleApp(app, bundle));
    assertSelfContained(bundle);
    const before = snapshot(bundle);
    await runAndProbe(app, bundle, work);
    const written = changes(before, snapshot(bundle));
    if (written.length) throw new Error(`wrote into the bundle (read-only in the image): ${written.slice(0, 5).join(', ')}`);
    console.log(`${app.padEnd(11)} ${size.padStart(7)}  ok (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  } catch (error) {
    failed++;
    console.log(`${app.padEnd(11)} ${size.padStart(7)}  FAILED: ${error.message}`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
process.exit(failed ? 1 : 0);

/** Starts `node dist/server.js` in the bundle, waits until it answers its health check, then stops it. */
async function runAndProbe(app, bundle, work) {
  const port = await freePort();
  const env = {
    // Nothing from this shell: no NODE_PATH, no NODE_OPTIONS, no PATH into the repository.
    PATH: '/usr/local/bin:/usr/bin:/bin',
    HOME: work,
    LOG_LEVEL: 'warn',
    CTK_DATA_DIR: join(work, 'data'),
    CHAIN_NETWORK: 'local',
    // Nothing listens there: starting must not need the chain.
    CHAIN_LOCAL_URL: `http://127.0.0.1:${await freePort()}`,
    ...(app === 'gateway'
      ? { HOST: '127.0.0.1', PORT: String(port), CTK_BACK_OFFICE_DIR: join(bundle, 'back-office'), ...(await serviceUrls()) }
      : { GRPC_HOST: '127.0.0.1', GRPC_PORT: String(port) }),
  };
  const child = spawn(process.execPath, ['dist/server.js'], { cwd: bundle, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output = (output + chunk).slice(-4000)));
  child.stderr.on('data', (chunk) => (output = (output + chunk).slice(-4000)));
  const exited = new Promise((resolveExit) => child.on('exit', (code, signal) => resolveExit({ code, signal })));
  let exitedEarly;
  exited.then((result) => (exitedEarly = result));

  try {
    const deadline = Date.now() + STARTUP_TIMEOUT_MS;
    let last = 'no answer';
    for (;;) {
      if (exitedEarly) throw new Error(`exited (${exitedEarly.code ?? exitedEarly.signal}) before it was healthy: ${lastLine(output)}`);
      last = await probe(app, port).catch((error) => error.message);
      if (last === 'ok') break;
      if (Date.now() > deadline) throw new Error(`not healthy within ${STARTUP_TIMEOUT_MS / 1000} s (${last}): ${lastLine(output)}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  } finally {
    if (!exitedEarly) child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
    const { code, signal } = await exited;
    clearTimeout(timer);
    if (!exitedEarly && code !== 0) throw new Error(`did not stop cleanly on SIGTERM (${code ?? signal}): ${lastLine(output)}`);
  }
}

/**
 * 'ok' when the app answers what its manifest probes: the gateway /healthz and /readyz (and /pos, the
 * counter screen, and /, the back office, whose files the bundle must carry), a service grpc.health.v1.
 */
async function probe(app, port) {
  if (app !== 'gateway') {
    const status = await grpcHealthStatus(`127.0.0.1:${port}`);
    return status === 'SERVING' ? 'ok' : `health ${status}`;
  }
  for (const path of ['/healthz', '/readyz', '/pos', '/']) {
    const response = await fetch(`http://127.0.0.1:${port}${path}`, { signal: AbortSignal.timeout(5000) });
    if (response.status !== 200) return `${path} answered ${response.status}`;
    // The start page is the back office's (its built script), not the API's documentation.
    if (path === '/' && !(await response.text()).includes('/app/assets/')) return '/ is not the back office';
  }
  return 'ok';
}

/** The gateway's service addresses: free ports, nothing listening (its health does not call them). */
async function serviceUrls() {
  const urls = {};
  for (const name of APPS.filter((app) => app !== 'gateway')) urls[`${name.toUpperCase()}_GRPC_URL`] = `127.0.0.1:${await freePort()}`;
  return urls;
}

/** Every symbolic link in the bundle stays inside it, and no folder above it offers node_modules. */
function assertSelfContained(bundle) {
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isSymbolicLink()) {
        const target = resolve(dirname(path), readlinkSync(path));
        if (target !== bundle && !target.startsWith(bundle + sep))
          throw new Error(`${relative(bundle, path)} links outside the bundle, to ${target}`);
      } else if (entry.isDirectory()) walk(path);
    }
  };
  walk(bundle);
  for (let dir = dirname(bundle); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'node_modules')))
      throw new Error(`${join(dir, 'node_modules')} exists above the bundle: it could resolve what the bundle lacks`);
    if (dirname(dir) === dir) break;
  }
}

/** Path, size and modification time of everything in the bundle. */
function snapshot(dir, into = new Map()) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    const stat = lstatSync(path);
    into.set(path, `${stat.size}:${stat.mtimeMs}`);
    if (entry.isDirectory()) snapshot(path, into);
  }
  return into;
}

function changes(before, after) {
  const changed = [];
  for (const [path, state] of after) if (before.get(path) !== state) changed.push(path);
  for (const path of before.keys()) if (!after.has(path)) changed.push(path);
  return changed;
}

function lastLine(output) {
  const lines = output.trim().split('\n');
  return lines.slice(-3).join(' | ').slice(0, 600) || '(no output)';
}
