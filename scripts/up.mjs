// One command from a fresh clone to a running system (npm start, or npm run up): installs pnpm (pinned) when it is missing, then
// the dependencies, generates code, builds, and starts the local chain, the gateway and all six services (in this
// process; with --distributed each in its own).
// A later start does only what changed: it installs when the lockfile or a package.json changed since the last install, and
// builds when a file under apps/, packages/ or proto/ changed since the last build (what each saw: node_modules/.ctk-up.json).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const PNPM = 'pnpm@10.34.9';
// What the children run with: turbo's telemetry notice (printed on every build) is noise on a newcomer's start.
const env = { ...process.env, TURBO_TELEMETRY_DISABLED: '1' };
const STAMPS = join(root, 'node_modules', '.ctk-up.json');
// Not what a build reads or writes: dependencies, turbo's logs, data, caches.
const NOT_BUILD = new Set(['node_modules', '.turbo', '.data', 'coverage', '.buf-cache']);
// What a build writes.
const OUTPUTS = new Set(['dist', 'gen', 'generated']);

let pnpmChecked = false;
function run(command, args) {
  if (command === 'pnpm' && !pnpmChecked) ensurePnpm();
  console.log(`> ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

// Asked only when pnpm is about to run: `pnpm --version` alone takes 0.4 s.
function ensurePnpm() {
  pnpmChecked = true;
  const pnpmVersion = spawnSync('pnpm', ['--version'], { encoding: 'utf8' }).stdout?.trim();
  if (pnpmVersion === PNPM.split('@')[1]) return;
  console.log(`pnpm ${PNPM.split('@')[1]} is needed (found ${pnpmVersion || 'none'}); installing it with npm.`);
  const installed = spawnSync('npm', ['install', '--global', PNPM], { stdio: 'inherit' });
  if (installed.status !== 0) {
    console.error(`Could not install ${PNPM} globally. Install it yourself (npm install -g ${PNPM}) and run this again.`);
    process.exit(1);
  }
}

/** The workspace's package folders, from pnpm-workspace.yaml's globs (`apps/*` or a folder). */
function workspaceDirs() {
  const globs = readFileSync(join(root, 'pnpm-workspace.yaml'), 'utf8').split('packages:')[1].split(/\n\S/)[0].match(/- .+/g);
  return globs.flatMap((line) => {
    const glob = line
      .slice(2)
      .trim()
      .replace(/^["']|["']$/g, '');
    if (!glob.endsWith('/*')) return [glob];
    return readdirSync(join(root, glob.slice(0, -2)), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => `${glob.slice(0, -2)}/${entry.name}`);
  });
}

/** What an install depends on (the lockfile, every package.json, pnpm's settings, Node's ABI) and what it makes. */
function installState() {
  const hash = createHash('sha256').update(process.versions.modules);
  const manifests = workspaceDirs().map((dir) => `${dir}/package.json`);
  for (const file of ['pnpm-lock.yaml', 'pnpm-workspace.yaml', '.pnpmfile.cjs', '.npmrc', 'package.json', ...manifests]) {
    const path = join(root, file);
    hash.update(`\0${file}\0`).update(existsSync(path) ? readFileSync(path) : '');
  }
  // A package's node_modules removed by hand is an install to run again.
  for (const dir of ['.', ...workspaceDirs()]) hash.update(`\0${dir}:${existsSync(join(root, dir, 'node_modules'))}`);
  return hash.digest('hex');
}

/**
 * What a build reads (every file, by path, size and modification time) and what it writes (the output folders' own
 * times tell whether one was removed or emptied, at a fraction of reading all of them).
 */
function buildState() {
  const [inputs, outputs] = [createHash('sha256'), createHash('sha256')];
  const visit = (path, name) => {
    const info = lstatSync(path, { throwIfNoEntry: false });
    if (info?.isFile()) inputs.update(`\0${path}\0${info.size}\0${info.mtimeMs}`);
    else if (info?.isDirectory() && OUTPUTS.has(name)) outputs.update(`\0${path}\0${info.mtimeMs}`);
    else if (info?.isDirectory())
      for (const entry of readdirSync(path).sort()) if (!NOT_BUILD.has(entry) && !entry.endsWith('.log')) visit(join(path, entry), entry);
  };
  for (const path of ['apps', 'packages', 'proto', 'turbo.json', 'tsconfig.base.json', 'scripts/bundle-start.mjs']) visit(join(root, path));
  // The embedded default's bundle (scripts/bundle-start.mjs) is the root's build output.
  visit(join(root, 'dist'), 'dist');
  return { inputs: inputs.digest('hex'), outputs: outputs.digest('hex') };
}

const stamps = existsSync(STAMPS) ? JSON.parse(readFileSync(STAMPS, 'utf8')) : {};
const save = () => writeFileSync(STAMPS, `${JSON.stringify(stamps)}\n`);

const installed = stamps.install === installState();
if (installed) console.log('Dependencies: installed (pnpm-lock.yaml and every package.json as at the last install).');
else {
  run('pnpm', ['install', '--frozen-lockfile']);
  stamps.install = installState();
  save();
}
// After an install the build runs even when no file changed: a dependency may have.
const before = buildState();
if (installed && stamps.build?.inputs === before.inputs && stamps.build.outputs === before.outputs)
  console.log('Build: up to date (no file changed since the last build).');
else {
  // Build logs only for a task that fails: the rest is a page of compiler banners between the newcomer and the start.
  run('pnpm', ['build', '--output-logs=errors-only']);
  // The sources as the build read them: one edited meanwhile is built on the next start.
  stamps.build = { inputs: before.inputs, outputs: buildState().outputs };
  save();
}
// In this process: a second Node would take its own startup, and a Ctrl-C then stops one process. With
// --distributed (npm run up:distributed), every app its own process on PostgreSQL and NATS instead.
const start = process.argv.includes('--distributed') ? 'start-distributed.mjs' : 'start-all.mjs';
console.log(`> scripts/${start}`);
process.chdir(root);
await import(`./${start}`);
