import { grpcHealthStatus } from '@ctk/shared/testing';
import { randomUUID } from 'node:crypto';
import { FederationServiceDefinition } from '@ctk/proto/ctk/federation/v1/federation';
import { createGrpcClient, loadConfig, startService, type GrpcClient, type RunningService } from '@ctk/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configSchema, service as federation } from '../src/app.js';

describe('federation service', () => {
  let service: RunningService;
  let client: GrpcClient<typeof FederationServiceDefinition>;
  beforeAll(async () => {
    service = await startService(federation, loadConfig(configSchema, { GRPC_PORT: '0', LOG_LEVEL: 'silent' }));
    client = createGrpcClient(FederationServiceDefinition, `127.0.0.1:${service.port}`);
  });
  afterAll(async () => {
    client.close();
    await service.close();
  });

  it('reports every capability federation owns as not set up yet, each with an honest next step', async () => {
    const { capabilities } = await client.getSetup({ org: { id: randomUUID(), handle: 'corner-cafe' } });
    expect(capabilities.map((c) => c.capabilityId)).toEqual(['open_sign', 'federated_marketplace']);
    for (const capability of capabilities) {
      expect(capability.setUp).toBe(false);
      expect(capability.nextStep).toMatch(/the federation service does not .+ yet\.$/);
    }
    expect(capabilities[0]?.nextStep).toBe(
      'The open sign becomes available in a later release; the federation service does not publish opening hours or status yet.',
    );
  });

  it('answers SERVING on grpc.health.v1, for the server and for FederationService', async () => {
    const address = `127.0.0.1:${service.port}`;
    expect(await grpcHealthStatus(address)).toBe('SERVING');
    expect(await grpcHealthStatus(address, 'ctk.federation.v1.FederationService')).toBe('SERVING');
  });
});
