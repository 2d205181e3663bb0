// One replica of an app as its own process, kept running as Kubernetes keeps a pod's container: started,
// probed until ready (and every PROBE_PERIOD_MS after, as a readiness probe: out of its balancer after
// FAILURE_THRESHOLD failures in a row, back at the next success), restarted when it exits
// without being asked to, after a back-off that doubles up to MAX_BACKOFF_MS (CrashLoopBackOff), and
// stopped with SIGTERM (SIGKILL after STOP_GRACE_MS). Its output is appended to its log file.
import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';

const PROBE_PERIOD_MS = 1_000;
// Failed probes in a row before a ready replica is taken out of its balancer (a probe's failureThreshold).
const FAILURE_THRESHOLD = 3;
const FIRST_BACKOFF_MS = 250;
const MAX_BACKOFF_MS = 5_000;
const STOP_GRACE_MS = 10_000;
// Ready this long, a replica's next crash starts the back-off again from the first step.
const STEADY_MS = 10_000;

export class Replica {
  /**
   * @param {{ name: string, port: number, metricsPort?: number, args: string[], env: NodeJS.ProcessEnv, logFile: string,
   *   probe: (port: number) => Promise<boolean>, say: (line: string) => void }} options
   */
  constructor(options) {
    Object.assign(this, { name: options.name, port: options.port, metricsPort: options.metricsPort });
    this.options = options;
    this.ready = false;
    this.restarts = 0;
    this.child = undefined;
    this.stopping = false;
    this.backoff = FIRST_BACKOFF_MS;
    this.log = createWriteStream(options.logFile, { flags: 'a' });
    this.readyWaiters = [];
  }

  get pid() {
    return this.child?.pid;
  }

  /** Spawns the process; resolves once it is ready (its probe answers), or rejects if it exits first. */
  start() {
    const { args, env } = this.options;
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    this.child = child;
    this.startedAt = Date.now();
    child.stdout.pipe(this.log, { end: false });
    child.stderr.pipe(this.log, { end: false });
    child.once('exit', (code, signal) => this.exited(child, code, signal));
    this.probeUntilReady(child);
    return new Promise((ready, failed) => this.readyWaiters.push({ ready, failed }));
  }

  /** Sends a signal (SIGKILL by default): unless stopping, the replica is restarted after its back-off. */
  kill(signal = 'SIGKILL') {
    this.child?.kill(signal);
  }

  /** SIGTERM, then SIGKILL after the grace period; resolves when the process is gone. */
  async stop() {
    this.stopping = true;
    clearTimeout(this.restartTimer);
    const child = this.child;
    if (child && child.exitCode === null && child.signalCode === null) {
      const gone = new Promise((done) => child.once('exit', done));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
      await gone;
      clearTimeout(timer);
    }
    await new Promise((closed) => this.log.end(closed));
  }

  /** Resolves once ready again (after a restart). */
  whenReady() {
    if (this.ready) return Promise.resolve();
    return new Promise((ready, failed) => this.readyWaiters.push({ ready, failed }));
  }

  exited(child, code, signal) {
    if (this.child !== child) return;
    this.ready = false;
    const waiters = this.readyWaiters.splice(0);
    if (this.stopping) {
      for (const waiter of waiters) waiter.failed(new Error(`${this.name} was stopped`));
      return;
    }
    const why = `${this.name} (pid ${child.pid}) exited (${signal ?? `code ${code}`})`;
    // Never ready: a start that fails is the caller's to report (a wrong setting, a database not reachable).
    if (waiters.length && !this.wasReady) {
      for (const waiter of waiters) waiter.failed(new Error(`${why} before it was ready; its log: ${this.options.logFile}`));
      return;
    }
    this.readyWaiters.push(...waiters);
    if (Date.now() - (this.readySince ?? 0) > STEADY_MS) this.backoff = FIRST_BACKOFF_MS;
    this.options.say(`${why}; restarting in ${this.backoff} ms`);
    this.restartTimer = setTimeout(() => {
      this.restarts++;
      this.start().catch(() => undefined);
    }, this.backoff);
    this.backoff = Math.min(this.backoff * 2, MAX_BACKOFF_MS);
  }

  async probeUntilReady(child) {
    let failures = 0;
    while (this.child === child && child.exitCode === null && child.signalCode === null) {
      const ok = await this.options.probe(this.port).catch(() => false);
      if (this.child !== child) return;
      failures = ok ? 0 : failures + 1;
      if (ok && !this.ready) {
        this.ready = true;
        this.wasReady = true;
        this.readySince = Date.now();
        for (const waiter of this.readyWaiters.splice(0)) waiter.ready();
      } else if (failures >= FAILURE_THRESHOLD && this.ready) {
        this.ready = false;
        if (!this.stopping) this.options.say(`${this.name} (pid ${child.pid}) stopped answering its readiness probe`);
      }
      await new Promise((later) => setTimeout(later, this.ready ? PROBE_PERIOD_MS : 100));
    }
  }
}
