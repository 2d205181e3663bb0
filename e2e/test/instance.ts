import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

export const ROOT = resolve(import.meta.dirname, '../..');

export type Instance = { process: ChildProcess; output: string[]; base: string };

/** A port free right now on 127.0.0.1. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const { port } = server.address() as { port: number };
  await new Promise((closed) => server.close(closed));
  return port;
}

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
  delete env.DATABASE_URL;
  delete env.NATS_URL;
  const child = spawn(process.execPath, [join(ROOT, 'scripts/start-all.mjs')], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const instance: Instance = { process: child, output: [], base: `http://localhost:${options.port}` };
  await new Promise<void>((ready, fail) => {
    const onData = (chunk: Buffer) => {
      instance.output.push(chunk.toString());
      if (chunk.toString().includes('Commerce Toolkit is running')) ready();
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => fail(new Error(`start-all exited with ${code}:\n${instance.output.join('')}`)));
  });
  return instance;
}

/** SIGTERM, as Ctrl-C; resolves with the exit code. */
export async function stopInstance(instance: Instance): Promise<number | null> {
  if (instance.process.exitCode !== null) return instance.process.exitCode;
  const exited = new Promise<number | null>((done) => instance.process.once('exit', (code) => done(code)));
  instance.process.kill('SIGTERM');
  return exited;
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
