import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createConnection } from 'node:net';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '@ctk/shared/testing';
import pg from 'pg';

export const ROOT = resolve(import.meta.dirname, '../..');

export type Instance = {
  process: ChildProcess;
  output: string[];
  base: string;
  /** What else it started (the distributed path's NATS server and databases), removed once it stopped. */
  cleanup?: () => Promise<void>;
};

export { freePort };

/**
 * `node scripts/start-all.mjs`, as `npm run up` runs it after building, with only PORT, CTK_DATA_DIR and
 * the local chain's port set; resolved once it prints where to start.
 */
export async function startInstance(options: {
  port: number;
  dataDir: string;
  chainPort: number;
  /** More settings, as a newcomer would export them before `npm run up`. */
  env?: Record<string, string>;
}): Promise<Instance> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...options.env,
    PORT: String(options.port),
    CTK_DATA_DIR: options.dataDir,
    CHAIN_PORT: String(options.chainPort),
    LOG_LEVEL: 'warn',
  };
  delete env.NATS_URL;
  return started('scripts/start-all.mjs', env, options.port);
}

/** The PostgreSQL server the distributed path's tests use (each run's databases are its own). */
const POSTGRES_URL = process.env.CTK_POSTGRES_URL || 'postgresql://postgres@127.0.0.1:5432/postgres';
const NATS_SERVER = '/usr/sbin/nats-server';

/** Why the distributed path cannot run here (no NATS server binary, PostgreSQL not answering), or undefined. */
export async function distributedUnavailable(): Promise<string | undefined> {
  if (!existsSync(NATS_SERVER)) return `${NATS_SERVER} is not installed (Debian's nats-server)`;
  const client = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 3_000 });
  try {
    await client.connect();
    return undefined;
  } catch (error) {
    return `PostgreSQL at ${POSTGRES_URL} (CTK_POSTGRES_URL) does not answer: ${(error as Error).message}`;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * `node scripts/start-distributed.mjs`, as `npm run up:distributed` runs it: every app its own process, on
 * databases of this run's own on the machine's PostgreSQL (`ctk_test_dist_<random>_<app>`, dropped after) and
 * on a NATS server of its own (JetStream, its store under dataDir).
 */
export async function startDistributedInstance(options: {
  port: number;
  dataDir: string;
  chainPort: number;
  /** More settings (CTK_REPLICAS, LOG_LEVEL (warn unless given), say). */
  env?: Record<string, string>;
}): Promise<Instance & { databases: () => Promise<Record<string, string>>; stopNats: () => void }> {
  const natsPort = await freePort();
  const nats = spawn(NATS_SERVER, ['-a', '127.0.0.1', '-p', String(natsPort), '-js', '-sd', join(options.dataDir, 'nats')], {
    stdio: 'ignore',
  });
  const prefix = `ctk_test_dist_${randomBytes(4).toString('hex')}`;
  const cleanup = async () => {
    nats.kill('SIGTERM');
    await onServer(async (client) => {
      const { rows } = await client.query<{ datname: string }>('SELECT datname FROM pg_database WHERE datname LIKE $1', [`${prefix}_%`]);
      for (const { datname } of rows) await client.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
    });
  };
  try {
    await until(() => reachable(natsPort), Boolean, `the NATS server on port ${natsPort}`);
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      LOG_LEVEL: 'warn',
      ...options.env,
      PORT: String(options.port),
      CTK_DATA_DIR: options.dataDir,
      CHAIN_PORT: String(options.chainPort),
      CTK_POSTGRES_URL: POSTGRES_URL,
      CTK_DATABASE_PREFIX: prefix,
      NATS_URL: `nats://127.0.0.1:${natsPort}`,
    };
    /** Each app's database, by app: `<prefix>_<app>` on the server. */
    const databases = async () =>
      Object.fromEntries(
        (
          await onServer((client) =>
            client.query<{ datname: string }>('SELECT datname FROM pg_database WHERE datname LIKE $1', [`${prefix}_%`]),
          )
        ).rows.map(({ datname }) => [datname.slice(prefix.length + 1), withDatabase(datname)]),
      );
    // A broker outage, as a test makes one: the NATS server killed.
    const stopNats = () => void nats.kill('SIGKILL');
    return { ...(await started('scripts/start-distributed.mjs', env, options.port)), cleanup, databases, stopNats };
  } catch (error) {
    await cleanup();
    throw error;
  }
}

/** A connection to the database at url (the server's own by default), for the length of use. */
export async function onServer<T>(use: (client: pg.Client) => Promise<T>, url = POSTGRES_URL): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

/** The server's URL naming another database. */
function withDatabase(name: string): string {
  const url = new URL(POSTGRES_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

function reachable(port: number): Promise<boolean> {
  return new Promise((answer) => {
    const socket = createConnection(port, '127.0.0.1');
    socket.once('connect', () => {
      answer(true);
      socket.end();
    });
    socket.once('error', () => answer(false));
  });
}

/** A start script run with env; resolved once it prints where to start. */
async function started(script: string, env: NodeJS.ProcessEnv, port: number): Promise<Instance> {
  delete env.DATABASE_URL;
  const child = spawn(process.execPath, [join(ROOT, script)], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const instance: Instance = { process: child, output: [], base: `http://localhost:${port}` };
  await new Promise<void>((ready, fail) => {
    const onData = (chunk: Buffer) => {
      instance.output.push(chunk.toString());
      if (chunk.toString().includes('Commerce Toolkit is running')) ready();
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => fail(new Error(`${script} exited with ${code}:\n${instance.output.join('')}`)));
  });
  return instance;
}

/** SIGTERM, as Ctrl-C; resolves with the exit code once it and what it started are gone. */
export async function stopInstance(instance: Instance): Promise<number | null> {
  const code =
    instance.process.exitCode ??
    (await new Promise<number | null>((done) => {
      instance.process.once('exit', (exitCode) => done(exitCode));
      instance.process.kill('SIGTERM');
    }));
  await instance.cleanup?.();
  return code;
}

export async function api(base: string, method: string, path: string, key?: string, body?: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
    body: body ? JSON.stringify(body) : undefined,
  });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

/** `pnpm wallet --json ...` (packages/wallet's bin) against the local chain at chainPort; the parsed JSON answer. */
export async function wallet(chainPort: number, file: string, ...args: string[]): Promise<Record<string, unknown>> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [join(ROOT, 'packages/wallet/bin/ctk-wallet.mjs'), '--file', file, '--json', ...args],
    {
      cwd: ROOT,
      env: { ...process.env, CHAIN_NETWORK: 'local', CHAIN_LOCAL_URL: `http://127.0.0.1:${chainPort}` },
    },
  );
  return JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as Record<string, unknown>;
}

/** Reads until `ready` says so, every `intervalMs`, at most `tries` more times; else fails with what was last read. */
export async function until<T>(
  read: () => Promise<T>,
  ready: (value: T) => boolean,
  what: string,
  tries = 150,
  intervalMs = 100,
): Promise<T> {
  let last = await read();
  for (let i = 0; i < tries && !ready(last); i++) {
    await new Promise((later) => setTimeout(later, intervalMs));
    last = await read();
  }
  if (!ready(last)) throw new Error(`${what}: still ${JSON.stringify(last).slice(0, 800)}`);
  return last;
}
