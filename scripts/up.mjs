// One command from a fresh clone to a running system (npm start, or npm run up): installs pnpm (pinned) when it is missing, then
// the dependencies, generates code, builds, and starts the local chain, the gateway and all six services.
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const PNPM = 'pnpm@10.34.9';
// What the children run with: turbo's telemetry notice (printed on every build) is noise on a newcomer's start.
const env = { ...process.env, TURBO_TELEMETRY_DISABLED: '1' };
const pnpmVersion = spawnSync('pnpm', ['--version'], { encoding: 'utf8' }).stdout?.trim();

function run(command, args) {
  console.log(`> ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

if (pnpmVersion !== PNPM.split('@')[1]) {
  console.log(`pnpm ${PNPM.split('@')[1]} is needed (found ${pnpmVersion || 'none'}); installing it with npm.`);
  const installed = spawnSync('npm', ['install', '--global', PNPM], { stdio: 'inherit' });
  if (installed.status !== 0) {
    console.error(`Could not install ${PNPM} globally. Install it yourself (npm install -g ${PNPM}) and run this again.`);
    process.exit(1);
  }
}
run('pnpm', ['install', '--frozen-lockfile']);
// Build logs only for a task that fails: the rest is a page of compiler banners between the newcomer and the start.
run('pnpm', ['build', '--output-logs=errors-only']);
run(process.execPath, [resolve(root, 'scripts/start-all.mjs')]);
