import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const PORT = 18470 + Math.floor(Math.random() * 400);
const BASE = `http://127.0.0.1:${PORT}`;
// Service ports of their own, so a developer's running instance does not interfere.
const SERVICE_PORTS = {
  BOOKS_GRPC_PORT: 51061,
  POS_GRPC_PORT: 51062,
  COMMERCE_GRPC_PORT: 51063,
  P2P_GRPC_PORT: 51064,
  FEDERATION_GRPC_PORT: 51065,
  CONTRACTS_GRPC_PORT: 51066,
  CHAIN_PORT: 51070,
};

type Running = { process: ChildProcess; output: string[] };

/** `node scripts/start-all.mjs`, as the README's start command runs it, resolved once it prints where to start. */
async function startAll(dataDir: string): Promise<Running> {
  const env = {
    ...process.env,
    PORT: String(PORT),
    CTK_DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    ...Object.fromEntries(Object.entries(SERVICE_PORTS).map(([k, v]) => [k, String(v)])),
  };
  delete env.DATABASE_URL;
  const child = spawn(process.execPath, [join(ROOT, 'scripts/start-all.mjs')], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const running: Running = { process: child, output: [] };
  await new Promise<void>((ready, fail) => {
    const onData = (chunk: Buffer) => {
      running.output.push(chunk.toString());
      if (chunk.toString().includes('Commerce Toolkit is running')) ready();
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => fail(new Error(`start-all exited with ${code}:\n${running.output.join('')}`)));
  });
  return running;
}

async function stop(running: Running): Promise<number | null> {
  const exited = new Promise<number | null>((done) => running.process.once('exit', (code) => done(code)));
  running.process.kill('SIGTERM');
  return exited;
}

async function api(method: string, path: string, key?: string, body?: unknown) {
  const response = await fetch(`${BASE}${path}`, {
    method,
    headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

describe('the embedded default, started as the README says', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'ctk-e2e-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('serves a newcomer end to end, stops cleanly, and keeps their data across a restart', async () => {
    let running = await startAll(dataDir);
    const onboarded = await api('POST', '/api/v1/onboard', undefined, { name: 'Harbour Coffee', user: { name: 'Ann' } });
    expect(onboarded.status).toBe(201);
    const key = onboarded.body.api_key.key as string;
    const handle = onboarded.body.organization.handle as string;

    const me = await api('GET', '/api/v1/me', key);
    expect(me.status).toBe(200);
    expect(me.body.organizations).toEqual([{ handle, name: 'Harbour Coffee', role: 'owner' }]);

    expect((await api('POST', `/api/v1/orgs/${handle}/items`, key, { name: 'Long black', price_cents: 420 })).status).toBe(201);
    const capabilities = await api('GET', `/api/v1/orgs/${handle}/capabilities`, key);
    const all = capabilities.body.rungs.flatMap(
      (rung: { capabilities: Array<{ id: string; set_up: boolean | null }> }) => rung.capabilities,
    );
    expect(all.find((c: { id: string }) => c.id === 'pos').set_up).toBe(true);
    // Every capability is marked: all six services answered GetSetup over gRPC.
    expect(all.filter((c: { set_up: boolean | null }) => typeof c.set_up !== 'boolean')).toEqual([]);
    expect((await fetch(`${BASE}/docs`)).status).toBe(200);

    expect(await stop(running)).toBe(0);

    running = await startAll(dataDir);
    try {
      const again = await api('GET', `/api/v1/orgs/${handle}/items`, key);
      expect(again.status).toBe(200);
      expect(again.body.data.map((item: { name: string }) => item.name)).toEqual(['Long black']);
    } finally {
      expect(await stop(running)).toBe(0);
    }
  });
});
