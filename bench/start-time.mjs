// How long `npm start` takes to serve: (a) from a fresh clone (git clone of this repository's HEAD into a
// temporary folder, then `npm start` there: install, build, start) and (b) warm, `npm start` again in that
// clone with the same data dir after stopping it (`--warm` times, 3 by default). The clock stops when the
// gateway's GET /readyz answers 200 (polled every 50 ms). Each instance gets a free PORT and CHAIN_PORT
// and a data dir of its own. The stages come from up.mjs's output: a line `> pnpm install ...` starts the
// install, `> pnpm build ...` the build, `> ... start-all.mjs` the start; a stage up.mjs skipped is
// printed as skipped. pnpm's store on this machine is warm (as for a developer who installed once), so the
// install links packages rather than downloading them; turbo's cache starts empty (it lives in the clone); the
// PGlite templates earlier runs or tests kept are used (it prints how many there are).
// Usage: pnpm bench:start [--warm N] [--keep] [--from-tree a,b]
//   --keep leaves the clone and prints where it is; --from-tree copies those files (paths from the root) from
//   the working tree over the clone, to measure changes not committed yet.
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { freePort } from '@ctk/shared/testing';

const { values: args } = parseArgs({
  options: { warm: { type: 'string', default: '3' }, keep: { type: 'boolean', default: false }, 'from-tree': { type: 'string' } },
});
const root = execFileSync('git', ['rev-parse', '--show-toplevel'], { cwd: resolve(import.meta.dirname), encoding: 'utf8' }).trim();
const work = mkdtempSync(join(tmpdir(), 'ctk-start-'));
const clone = join(work, 'repo');
const dataDir = join(work, 'data');
const TIMEOUT_MS = 300_000;
// What marks the start of each stage in up.mjs's output.
const STAGES = [
  ['install', /^> pnpm install\b/],
  ['build', /^> pnpm (run )?build\b/],
  ['start', /start-all\.mjs/],
];
let running;

const seconds = (ms) => `${(ms / 1000).toFixed(2)} s`;
const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

/** Whether any process of the group is left. */
function groupAlive(pid) {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Runs `npm start` in the clone, in a process group of its own, until the gateway answers /readyz.
 * Answers when each stage began (ms after `since`) and when it served.
 */
async function start(env, since) {
  const child = spawn('npm', ['start'], { cwd: clone, env: { ...process.env, ...env }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  running = child;
  const marks = {};
  const tail = [];
  let exited;
  child.once('exit', (code, signal) => (exited = signal ?? code));
  const watch = (stream) => {
    let rest = '';
    stream.setEncoding('utf8').on('data', (chunk) => {
      const lines = (rest + chunk).split('\n');
      rest = lines.pop();
      for (const line of lines) {
        const at = performance.now() - since;
        for (const [stage, pattern] of STAGES) if (marks[stage] === undefined && pattern.test(line)) marks[stage] = at;
        tail.push(line);
        if (tail.length > 40) tail.shift();
      }
    });
  };
  watch(child.stdout);
  watch(child.stderr);
  const url = `http://127.0.0.1:${env.PORT}/readyz`;
  while (performance.now() - since < TIMEOUT_MS) {
    if (exited !== undefined) throw new Error(`npm start exited (${exited}) before serving:\n${tail.join('\n')}`);
    const ok = await fetch(url, { signal: AbortSignal.timeout(2_000) }).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) return { marks, served: performance.now() - since, tail };
    await sleep(50);
  }
  throw new Error(`not serving after ${seconds(TIMEOUT_MS)}:\n${tail.join('\n')}`);
}

/** Stops the instance as Ctrl-C would (SIGINT to its group) and waits until every process of it is gone. */
async function stop() {
  if (!running) return;
  const { pid } = running;
  running = undefined;
  if (!groupAlive(pid)) return;
  process.kill(-pid, 'SIGINT');
  for (let waited = 0; groupAlive(pid); waited += 50) {
    if (waited === 15_000) process.kill(-pid, 'SIGKILL');
    await sleep(50);
  }
}

/** One line per stage, from the marks start() saw; `from` is when the run's clock started (the clone's end, for a cold one). */
function report(label, { marks, served }, from = 0) {
  const parts = [];
  let previous = from;
  const seen = STAGES.map(([stage]) => stage).filter((stage) => marks[stage] !== undefined);
  for (const [stage] of STAGES) {
    if (marks[stage] === undefined) {
      parts.push(`${stage} skipped`);
      continue;
    }
    const next = seen[seen.indexOf(stage) + 1];
    const end = next === undefined ? served : marks[next];
    if (marks[stage] - previous > 100) parts.push(`(before ${stage} ${seconds(marks[stage] - previous)})`);
    parts.push(`${stage === 'start' ? 'start to serving' : stage} ${seconds(end - marks[stage])}`);
    previous = end;
  }
  console.log(`${label}: serving after ${seconds(served)}  [${parts.join(', ')}]`);
}

async function main() {
  const env = {
    PORT: String(await freePort()),
    CHAIN_PORT: String(await freePort()),
    CTK_DATA_DIR: dataDir,
  };
  console.log(`Clone of ${root} at HEAD in ${clone}; PORT ${env.PORT}, CHAIN_PORT ${env.CHAIN_PORT}, data in ${dataDir}.`);
  console.log(`pnpm's store is warm (packages are linked from it, not downloaded); turbo's cache starts empty.`);
  // A new PGlite database copies its schema's migrated template when one is kept (packages/shared's pglite-template.ts).
  const templates = join(tmpdir(), 'ctk-pglite-templates');
  const kept = existsSync(templates) ? readdirSync(templates).filter((name) => name.endsWith('.tar')).length : 0;
  console.log(
    `PGlite templates kept in ${templates}: ${kept} (with none, the first start makes one database by initdb, and each ` +
      'starts as a copy of it and is migrated: decision 0054).',
  );

  const since = performance.now();
  execFileSync('git', ['clone', '-q', root, clone], { stdio: 'inherit' });
  for (const path of args['from-tree']?.split(',') ?? []) cpSync(join(root, path), join(clone, path), { recursive: true });
  const cloned = performance.now() - since;
  const cold = await start(env, since);
  console.log(`\nfresh clone to serving: ${seconds(cold.served)}`);
  console.log(`  clone ${seconds(cloned)}`);
  report('  cold', cold, cloned);

  const warmStarts = [];
  for (let i = 1; i <= Number(args.warm); i++) {
    await stop();
    const warm = await start(env, performance.now());
    report(`warm start ${i}`, warm);
    warmStarts.push(warm.served);
  }
  // On a machine this noisy one start says little: the middle of them says more.
  if (warmStarts.length > 1) {
    const sorted = warmStarts.toSorted((a, b) => a - b);
    const middle = sorted.length % 2 ? sorted[(sorted.length - 1) / 2] : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
    console.log(`warm starts: median ${seconds(middle)}, quickest ${seconds(sorted[0])}, slowest ${seconds(sorted.at(-1))}`);
  }
}

// Ctrl-C on the bench stops the instance and removes the clone too.
process.once('SIGINT', async () => {
  await stop();
  if (!args.keep) rmSync(work, { recursive: true, force: true });
  process.exit(130);
});
try {
  await main();
} catch (error) {
  console.error(error);
  process.exitCode = 1;
} finally {
  await stop();
  if (args.keep) console.log(`kept ${work}`);
  else rmSync(work, { recursive: true, force: true });
}
