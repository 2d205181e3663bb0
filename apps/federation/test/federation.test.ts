import { createTestDatabase, eventually, grpcHealthStatus, TEST_DATA_DIR } from '@ctk/shared/testing';
import { randomUUID } from 'node:crypto';
import { FederationServiceDefinition } from '@ctk/proto/ctk/federation/v1/federation';
import { createGrpcClient, loadConfig, startService, type GrpcClient, type RunningService } from '@ctk/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configSchema, service as federation } from '../src/app.js';

describe('federation service', () => {
  let service: RunningService;
  let client: GrpcClient<typeof FederationServiceDefinition>;
  beforeAll(async () => {
    const url = await createTestDatabase('federation');
    service = await startService(
      federation,
      loadConfig(configSchema, {
        GRPC_PORT: '0',
        LOG_LEVEL: 'silent',
        FEDERATION_PULL_INTERVAL_MS: '0',
        CTK_DATA_DIR: TEST_DATA_DIR,
        ...(url ? { DATABASE_URL: url } : {}),
      }),
    );
    client = createGrpcClient(FederationServiceDefinition, `127.0.0.1:${service.port}`);
  });
  afterAll(async () => {
    client.close();
    await service.close();
  });

  it('reports a new organisation without hours or a feed, each with its next step', async () => {
    const { capabilities } = await client.getSetup({ org: { id: randomUUID(), handle: 'corner-cafe' } });
    expect(capabilities.map((c) => [c.capabilityId, c.setUp])).toEqual([
      ['open_sign', false],
      ['federated_marketplace', false],
    ]);
    expect(capabilities[0]?.nextStep).toMatch(/PUT \/api\/v1\/orgs\/:handle\/hours/);
    expect(capabilities[1]?.nextStep).toMatch(/POST \/api\/v1\/feeds/);
  });

  it('answers SERVING on grpc.health.v1, for the server and for FederationService', async () => {
    const address = `127.0.0.1:${service.port}`;
    // As a readiness probe asks, again until it answers: the first check of the database, made as the service
    // starts, may take longer than its 2 s on a machine busy with other tests, and reports NOT_SERVING until the next.
    await eventually(async () => {
      expect(await grpcHealthStatus(address)).toBe('SERVING');
      expect(await grpcHealthStatus(address, 'ctk.federation.v1.FederationService')).toBe('SERVING');
    }, 15_000);
  });
});
