// The fault bench's own PostgreSQL and NATS servers, so that it can restart them mid-run without touching the
// machine's: a PostgreSQL cluster made with initdb in a folder of the run's (run as the `postgres` user when
// this runs as root, since PostgreSQL refuses root), and a NATS server with JetStream storing in another.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync } from 'node:fs';
import { createConnection } from 'node:net';
import { dirname, join } from 'node:path';

const sleep = (ms: number) => new Promise((later) => setTimeout(later, ms));

/** Resolves once something accepts TCP connections on 127.0.0.1:port. */
export async function listening(port: number, what: string, timeoutMs = 30_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const ok = await new Promise<boolean>((answer) => {
      const socket = createConnection(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.end();
        answer(true);
      });
      socket.once('error', () => answer(false));
    });
    if (ok) return;
    if (Date.now() > until) throw new Error(`${what} is not listening on port ${port} after ${timeoutMs / 1000} s`);
    await sleep(100);
  }
}

/** The folder of PostgreSQL's programs (initdb, pg_ctl), from pg_config or Debian's place for them. */
function postgresBin(): string {
  const fromConfig = (() => {
    try {
      return execFileSync('pg_config', ['--bindir'], { encoding: 'utf8' }).trim();
    } catch {
      return '';
    }
  })();
  if (fromConfig && existsSync(join(fromConfig, 'initdb'))) return fromConfig;
  for (const version of ['17', '16', '15', '14'])
    if (existsSync(`/usr/lib/postgresql/${version}/bin/initdb`)) return `/usr/lib/postgresql/${version}/bin`;
  throw new Error('PostgreSQL server programs (initdb, pg_ctl) are not installed');
}

export type PostgresServer = { url: string; restart(): Promise<void>; stop(): Promise<void> };

/**
 * A PostgreSQL cluster of the run's own on `port`, with room for every replica's pool. restart() is a crash
 * and recovery: an immediate shutdown (no checkpoint, connections cut), then a start that replays the WAL.
 */
export async function startPostgres(dir: string, port: number): Promise<PostgresServer> {
  const bin = postgresBin();
  const asRoot = process.getuid?.() === 0;
  mkdirSync(dir, { recursive: true });
  // The postgres user must reach its folder: the run's folder (mkdtemp's 0700) is opened to traversal.
  if (asRoot) {
    chmodSync(dirname(dir), 0o755);
    execFileSync('chown', ['postgres:postgres', dir]);
  }
  const run = (program: string, args: string[]) => {
    try {
      if (asRoot) execFileSync('runuser', ['-u', 'postgres', '--', join(bin, program), ...args], { stdio: 'pipe' });
      else execFileSync(join(bin, program), args, { stdio: 'pipe' });
    } catch (error) {
      const { stderr } = error as { stderr?: Buffer };
      throw new Error(`${program} failed: ${stderr?.toString().trim() || String(error)}`);
    }
  };
  const data = join(dir, 'data');
  run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=500 -c shared_buffers=256MB`;
  const start = () => run('pg_ctl', ['-D', data, '-l', join(dir, 'postgres.log'), '-o', options, '-w', 'start']);
  start();
  return {
    url: `postgresql://postgres@127.0.0.1:${port}/postgres`,
    async restart() {
      run('pg_ctl', ['-D', data, '-m', 'immediate', 'stop']);
      await sleep(1_000);
      start();
    },
    async stop() {
      run('pg_ctl', ['-D', data, '-m', 'fast', 'stop']);
    },
  };
}

export type NatsServer = { url: string; restart(): Promise<void>; stop(): Promise<void> };

/** nats-server with JetStream on `port`, its store in `dir`. restart() kills it (SIGKILL) and starts it on the same store. */
export async function startNats(dir: string, port: number): Promise<NatsServer> {
  mkdirSync(dir, { recursive: true });
  let server: ChildProcess;
  const start = async () => {
    server = spawn('nats-server', ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', dir, '-l', join(dir, 'nats.log')], {
      stdio: 'ignore',
    });
    await listening(port, 'the NATS server');
  };
  const stop = async (signal: NodeJS.Signals) => {
    if (server.exitCode !== null || server.signalCode !== null) return;
    const gone = new Promise((done) => server.once('exit', done));
    server.kill(signal);
    await gone;
  };
  await start();
  return {
    url: `nats://127.0.0.1:${port}`,
    async restart() {
      await stop('SIGKILL');
      await sleep(1_000);
      await start();
    },
    stop: () => stop('SIGTERM'),
  };
}
