// Runs every package's tests (its `test` script), a few packages at a time, and prints how long each took.
//
// Which packages use the database is read from their code: a package whose tests (test/, src/**/*.test.*,
// src/testing/) name CTK_TEST_POSTGRES_URL or createTestDatabase (@ctk/shared/testing's database per test
// file) has a PostgreSQL variant; the others' tests are the same on either database and run once.
// Jobs start heaviest first (by the size of the package's *.test.* files), CTK_TEST_JOBS at a time (default:
// the machine's cores); a package never runs two jobs at once (its PGlite and PostgreSQL runs share its
// folder). Each job's output is printed as one block when it ends, each line prefixed with the job; a failed job's
// failures are printed again after the table of times, where the tail of a log shows them.
// Each PostgreSQL test database the run creates carries its name (CTK_TEST_RUN), and is dropped as it ends.
// `pnpm test` builds first and then runs this; run on its own, it needs `pnpm build` first (tests import the
// packages they depend on from their dist, and e2e starts the built apps).
//
//   node scripts/run-tests.mjs [--db=pglite|postgres|both] [--repeat-concurrency=N] [--list] [package ...] [-- test script arguments]
//
// --db=pglite (the default): every package on the embedded default (PGlite).
// --db=postgres (the default when CTK_TEST_POSTGRES_URL is set): the database packages, against that server.
// --db=both: one queue of both, as CI runs it (CTK_TEST_POSTGRES_URL names the server).
// --repeat-concurrency=N: only the tests tagged `concurrency` (many callers at once on one resource), each run
// N more times in a row in the stack its file started (@ctk/shared/test-tags), in the packages that have them.
// --list: prints which packages have a PostgreSQL variant and the order the jobs start in; runs nothing.
// A package is its name (@ctk/books), its name without the scope (books) or its folder (apps/books).
// What follows -- goes to each package's test script (e.g. one file: -- test/config.test.ts).
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SKIP_DIRS = new Set(['node_modules', 'dist', 'generated', 'artifacts']);
const TEST_FILE = /\.test\.[cm]?[jt]s$/;
const USES_DATABASE = /CTK_TEST_POSTGRES_URL|createTestDatabase/;
const HAS_CONCURRENCY_TESTS = /tags: \['concurrency'\]/;
// Packages whose tests must not run beside each other: wallet's tests rebuild its dist
// (packages/wallet/test/build-once.ts), which e2e's tests run as the developer wallet.
const NOT_TOGETHER = [['@ctk/wallet', '@ctk/e2e']];

const dashes = process.argv.indexOf('--', 2);
const args = process.argv.slice(2, dashes < 0 ? undefined : dashes);
const passOn = dashes < 0 ? [] : process.argv.slice(dashes + 1);
const option = (name) => args.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
const postgresUrl = process.env.CTK_TEST_POSTGRES_URL;
const db = option('db') ?? (postgresUrl ? 'postgres' : 'pglite');
if (!['pglite', 'postgres', 'both'].includes(db)) fail(`--db is pglite, postgres or both, not ${db}`);
if (db !== 'pglite' && !postgresUrl) fail(`--db=${db} needs CTK_TEST_POSTGRES_URL (e.g. postgresql://postgres@127.0.0.1:5432/postgres)`);
const repeatConcurrency = option('repeat-concurrency');
if (repeatConcurrency !== undefined && !/^\d+$/.test(repeatConcurrency))
  fail(`--repeat-concurrency is a whole number (how many more runs of each concurrency test), not ${repeatConcurrency}`);
const wanted = args.filter((arg) => !arg.startsWith('--'));
/** This run's name, in the names of the test databases it creates on the PostgreSQL server (createTestDatabase). */
const testRun = randomBytes(4).toString('hex');
const jobLimit = Number(process.env.CTK_TEST_JOBS || availableParallelism());
if (!Number.isInteger(jobLimit) || jobLimit < 1) fail(`CTK_TEST_JOBS is a whole number of at least 1, not ${process.env.CTK_TEST_JOBS}`);

function fail(message) {
  console.error(`run-tests: ${message}`);
  process.exit(2);
}

/** Every file below dir (skipping installed and generated ones), as paths. */
function filesBelow(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return SKIP_DIRS.has(entry.name) ? [] : filesBelow(path);
    return [path];
  });
}

/** The workspace's packages that have a test script, with what decides how they run. */
function testPackages() {
  const listed = JSON.parse(execFileSync('pnpm', ['ls', '-r', '--depth', '-1', '--json'], { cwd: ROOT, encoding: 'utf8' }));
  return listed
    .map(({ name, path }) => ({ name, dir: relative(ROOT, path), pkg: JSON.parse(readFileSync(join(path, 'package.json'), 'utf8')) }))
    .filter(({ dir, pkg }) => dir && pkg.scripts?.test)
    .map(({ name, dir }) => {
      const inSrc = filesBelow(join(ROOT, dir, 'src')).filter((file) => TEST_FILE.test(file) || file.includes('/testing/'));
      const sources = [...filesBelow(join(ROOT, dir, 'test')), ...inSrc];
      return {
        name,
        dir,
        short: name.replace(/^@[^/]+\//, ''),
        usesDatabase: sources.some((file) => USES_DATABASE.test(readFileSync(file, 'utf8'))),
        hasConcurrencyTests: sources.some((file) => HAS_CONCURRENCY_TESTS.test(readFileSync(file, 'utf8'))),
        weight: sources.filter((file) => TEST_FILE.test(file)).reduce((sum, file) => sum + statSync(file).size, 0),
      };
    });
}

const all = testPackages();
const unknown = wanted.filter((want) => !all.some((p) => [p.name, p.short, p.dir].includes(want.replace(/\/$/, ''))));
if (unknown.length) fail(`no package with tests named ${unknown.join(', ')} (there are: ${all.map((p) => p.short).join(', ')})`);
const chosen = (
  wanted.length ? all.filter((p) => wanted.some((want) => [p.name, p.short, p.dir].includes(want.replace(/\/$/, '')))) : all
).filter((p) => repeatConcurrency === undefined || p.hasConcurrencyTests);
const testArguments = repeatConcurrency === undefined ? passOn : ['--tagsFilter=concurrency', ...passOn];

const jobs = chosen
  .flatMap((p) => [
    ...(db !== 'postgres' ? [{ ...p, database: p.usesDatabase ? 'pglite' : 'none' }] : []),
    ...(db !== 'pglite' && p.usesDatabase ? [{ ...p, database: 'postgres' }] : []),
  ])
  .sort((a, b) => b.weight - a.weight || a.name.localeCompare(b.name) || a.database.localeCompare(b.database))
  .map((job) => ({ ...job, label: job.database === 'none' ? job.short : `${job.short} ${job.database}` }));

if (args.includes('--list')) {
  for (const p of all)
    console.log(`${p.name.padEnd(24)} ${p.dir.padEnd(18)} ${p.usesDatabase ? 'PGlite, and PostgreSQL' : 'once (uses no database)'}`);
  console.log(`\n--db=${db}, ${jobLimit} at a time; the jobs start in this order:`);
  for (const job of jobs) console.log(`  ${job.label}`);
  process.exit(0);
}
const onlyOnce = chosen.filter((p) => !p.usesDatabase);
if (db === 'postgres' && onlyOnce.length)
  console.log(`No PostgreSQL variant (their tests use no database): ${onlyOnce.map((p) => p.short).join(', ')}`);
console.log(`== ${jobs.length} test jobs, ${jobLimit} at a time: ${jobs.map((job) => job.label).join(', ')}`);

/** Runs one job's test script, its output kept until it ends; resolves with what the table shows. */
function run(job) {
  const env = { ...process.env };
  if (job.database === 'postgres') Object.assign(env, { CTK_TEST_POSTGRES_URL: postgresUrl, CTK_TEST_RUN: testRun });
  else delete env.CTK_TEST_POSTGRES_URL;
  if (repeatConcurrency !== undefined) env.CTK_REPEAT_CONCURRENCY = repeatConcurrency;
  const started = Date.now();
  const output = [];
  const child = spawn('pnpm', ['run', 'test', ...testArguments], { cwd: join(ROOT, job.dir), env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.on('data', (chunk) => output.push(chunk));
  child.stderr.on('data', (chunk) => output.push(chunk));
  return new Promise((done) => {
    child.on('error', (error) => output.push(Buffer.from(`${error.message}\n`)));
    child.on('close', (code, signal) => {
      const seconds = (Date.now() - started) / 1000;
      const text = Buffer.concat(output).toString();
      const counts = testCounts(text);
      const ok = code === 0;
      const prefix = `[${job.label}] `;
      const lines = text.replace(/\n$/, '').split('\n');
      console.log(`\n== ${job.label}: ${ok ? 'ok' : `FAILED (${signal ?? `exit ${code}`})`} in ${seconds.toFixed(0)} s`);
      console.log(lines.map((line) => prefix + line).join('\n'));
      done({ ...job, seconds, ...counts, ok, failures: ok ? [] : failureLines(text) });
    });
  });
}

/** What a failed job says of its failures: vitest's "Failed Tests" section, node's "not ok" lines, or its last lines. */
function failureLines(text) {
  const lines = text.replace(/\x1b\[[0-9;]*m/g, '').split('\n');
  const section = lines.findIndex((line) => /Failed Tests \d+/.test(line));
  if (section >= 0) return lines.slice(section, section + 80);
  const notOk = lines.filter((line) => /^\s*not ok \d+/.test(line));
  return notOk.length ? notOk : lines.slice(-40);
}

/** vitest's "Tests  N passed | M failed" and node's "# pass N" / "# fail N" lines, added up. */
function testCounts(text) {
  const plain = text.replace(/\x1b\[[0-9;]*m/g, '');
  let passed = 0;
  let failed = 0;
  for (const line of plain.split('\n')) {
    if (/^\s*Tests\s+\d+ (passed|failed)/.test(line)) {
      passed += Number(line.match(/(\d+) passed/)?.[1] ?? 0);
      failed += Number(line.match(/(\d+) failed/)?.[1] ?? 0);
    }
    passed += Number(line.match(/^# pass (\d+)$/)?.[1] ?? 0);
    failed += Number(line.match(/^# fail (\d+)$/)?.[1] ?? 0);
  }
  return { passed, failed };
}

/** The jobs, at most jobLimit at once, each starting as soon as a slot is free and nothing it may not run beside is running. */
async function runAll() {
  const waiting = [...jobs];
  const running = new Set();
  const results = [];
  const clashes = (job) =>
    [...running].some(
      (other) => other.name === job.name || NOT_TOGETHER.some((pair) => pair.includes(job.name) && pair.includes(other.name)),
    );
  await new Promise((finished) => {
    const next = () => {
      while (running.size < jobLimit) {
        const index = waiting.findIndex((job) => !clashes(job));
        if (index < 0) break;
        const [job] = waiting.splice(index, 1);
        running.add(job);
        run(job).then((result) => {
          running.delete(job);
          results.push(result);
          next();
        });
      }
      if (!running.size && !waiting.length) finished();
    };
    next();
  });
  return results;
}

/** Drops the test databases this run created, so that runs leave nothing on the server (a few GB a whole run). */
async function dropTestDatabases() {
  const { dropTestDatabases: drop } = await import(pathToFileURL(join(ROOT, 'packages/shared/dist/testing/test-database.js')).href);
  const dropped = await drop(postgresUrl, testRun);
  console.log(`\n== test databases this run created on PostgreSQL: ${dropped} dropped`);
}

const started = Date.now();
const results = await runAll();
if (jobs.some((job) => job.database === 'postgres'))
  await dropTestDatabases().catch((error) => console.log(`\n== the test databases this run created were not dropped: ${error.message}`));
const width = Math.max(7, ...results.map((r) => r.short.length));
const row = (...cells) =>
  `${cells[0].padEnd(width)}  ${cells[1].padEnd(10)}  ${cells
    .slice(2)
    .map((c) => String(c).padStart(7))
    .join('  ')}`;
console.log(`\n== test times (${jobLimit} at a time)`);
console.log(row('package', 'database', 'seconds', 'passed', 'failed', 'status'));
for (const r of results.sort((a, b) => b.seconds - a.seconds)) {
  console.log(
    row(
      r.short,
      { pglite: 'PGlite', postgres: 'PostgreSQL', none: '-' }[r.database],
      r.seconds.toFixed(0),
      r.passed,
      r.failed,
      r.ok ? 'ok' : 'FAILED',
    ),
  );
}
const sum = (key) => results.reduce((total, r) => total + r[key], 0);
const failedJobs = results.filter((r) => !r.ok);
console.log(
  row('total', '', ((Date.now() - started) / 1000).toFixed(0), sum('passed'), sum('failed'), failedJobs.length ? 'FAILED' : 'ok'),
);
console.log(`(the jobs' own times add up to ${sum('seconds').toFixed(0)} s)`);
if (failedJobs.length) console.log(`Failed: ${failedJobs.map((r) => r.label).join(', ')}`);
// Again at the end, where a log's tail shows it: what each failed job said of its failures.
for (const r of failedJobs) console.log(`\n== ${r.label} failures\n${r.failures.join('\n')}`);
process.exit(failedJobs.length ? 1 : 0);
