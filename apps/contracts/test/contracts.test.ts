import { randomUUID } from 'node:crypto';
import { createTestDatabase, eventually, grpcHealthStatus, TEST_DATA_DIR } from '@ctk/shared/testing';
import { ContractsServiceDefinition } from '@ctk/proto/ctk/contracts/v1/contracts';
import { createGrpcClient, loadConfig, startService, type GrpcClient, type RunningService } from '@ctk/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configSchema, service as contracts } from '../src/app.js';

describe('contracts service', () => {
  let service: RunningService;
  let client: GrpcClient<typeof ContractsServiceDefinition>;
  beforeAll(async () => {
    // Its own database, migrated on start: PGlite in memory, or PostgreSQL when the tests are given one.
    const url = await createTestDatabase('contracts');
    const database = { CTK_DATA_DIR: TEST_DATA_DIR, ...(url ? { DATABASE_URL: url } : {}) };
    service = await startService(contracts, loadConfig(configSchema, { GRPC_PORT: '0', LOG_LEVEL: 'silent', ...database }));
    client = createGrpcClient(ContractsServiceDefinition, `127.0.0.1:${service.port}`);
  });
  afterAll(async () => {
    client.close();
    await service.close();
  });

  it('reports each capability contracts owns as not set up for a new shop: each with its first step', async () => {
    const { capabilities } = await client.getSetup({ org: { id: randomUUID(), handle: 'corner-cafe' } });
    expect(capabilities.map((c) => c.capabilityId)).toEqual(['escrow', 'timelocked_refund', 'referral_covenant', 'tokens', 'psbt']);
    for (const capability of capabilities) expect(capability.setUp).toBe(false);
    expect(capabilities[0]?.nextStep).toMatch(/^Agree an escrow with a buyer and an arbiter/);
    expect(capabilities[1]?.nextStep).toMatch(/^Agree a time-locked refund with a buyer/);
    expect(capabilities[2]?.nextStep).toMatch(/^Make a referral link for an item \(POST \/api\/v1\/orgs\/:handle\/referral-links, staff\)/);
    expect(capabilities[3]?.nextStep).toMatch(/^Mint a token \(POST \/api\/v1\/orgs\/:handle\/tokens, admin\)/);
    expect(capabilities[4]?.nextStep).toMatch(/^Build a transaction your partners sign with you/);
  });

  it('answers SERVING on grpc.health.v1, for the server and for ContractsService', async () => {
    const address = `127.0.0.1:${service.port}`;
    // As a readiness probe asks, again until it answers: the first check of the database, made as the service
    // starts, may take longer than its 2 s on a machine busy with other tests, and reports NOT_SERVING until the next.
    await eventually(async () => {
      expect(await grpcHealthStatus(address)).toBe('SERVING');
      expect(await grpcHealthStatus(address, 'ctk.contracts.v1.ContractsService')).toBe('SERVING');
    }, 15_000);
  });
});
