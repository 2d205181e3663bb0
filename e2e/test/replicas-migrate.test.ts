import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  api,
  distributedUnavailable,
  freePort,
  onServer,
  ROOT,
  startDistributedInstance,
  stopInstance,
  type Instance,
} from './instance.js';

const skip = await distributedUnavailable();
if (skip) console.warn(`Five replicas of each app are not started: ${skip}`);
const APPS = ['gateway', 'books', 'pos', 'commerce', 'p2p', 'federation', 'contracts'];

/**
 * `CTK_REPLICAS=5 npm run up:distributed` on a fresh PostgreSQL: each app's five processes start at once on its
 * new database (scripts/distributed/system.mjs starts an app's replicas side by side), all of them serve, and each
 * migration of every app was applied once (packages/shared/src/db/migrate.ts holds the migration lock).
 */
describe.skipIf(skip)('five replicas of each app started at once on a fresh PostgreSQL', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ctk-e2e-replicas-'));
  let instance: Instance & { databases: () => Promise<Record<string, string>> };

  beforeAll(async () => {
    instance = await startDistributedInstance({
      port: await freePort(),
      dataDir: join(dir, 'instance'),
      chainPort: await freePort(),
      env: { CTK_REPLICAS: '5' },
    });
  }, 300_000);

  afterAll(async () => {
    if (instance) await stopInstance(instance);
    rmSync(dir, { recursive: true, force: true });
  });

  it('all start and serve, and every migration of every app ran once', async () => {
    expect(instance.output.join('')).toMatch(/running at .* \(35 processes for 7 apps;/);
    const databases = await instance.databases();
    expect(Object.keys(databases).sort()).toEqual([...APPS].sort());
    for (const app of APPS) {
      const folders = readdirSync(join(ROOT, 'apps', app, 'prisma/migrations'), { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => entry.name)
        .sort();
      const records = await onServer(
        async (client) =>
          (
            await client.query<{ name: string; finished: boolean }>(
              'SELECT migration_name AS name, finished_at IS NOT NULL AS finished FROM _prisma_migrations ORDER BY 1',
            )
          ).rows,
        databases[app],
      );
      expect(records, app).toEqual(folders.map((name) => ({ name, finished: true })));
    }
    // Served through the gateway's balancer by any of its replicas, on services' any replicas.
    const onboarded = await api(instance.base, 'POST', '/api/v1/onboard', undefined, { name: 'Five Replicas Cafe' });
    expect(onboarded.status).toBe(201);
    const me = await api(instance.base, 'GET', '/api/v1/me', onboarded.body.api_key.key);
    expect(me.status).toBe(200);
  }, 120_000);
});
