import { grpcHealthStatus } from '@ctk/shared/testing';
import { randomUUID } from 'node:crypto';
import { CommerceServiceDefinition } from '@ctk/proto/ctk/commerce/v1/commerce';
import { createGrpcClient, loadConfig, startService, type GrpcClient, type RunningService } from '@ctk/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configSchema, service as commerce } from '../src/app.js';

describe('commerce service', () => {
  let service: RunningService<object>;
  let client: GrpcClient<typeof CommerceServiceDefinition>;
  beforeAll(async () => {
    service = await startService(commerce, loadConfig(configSchema, { GRPC_PORT: '0', LOG_LEVEL: 'silent' }));
    client = createGrpcClient(CommerceServiceDefinition, `127.0.0.1:${service.port}`);
  });
  afterAll(async () => {
    client.close();
    await service.close();
  });

  it('reports every capability commerce owns as not set up yet, each with an honest next step', async () => {
    const { capabilities } = await client.getSetup({ org: { id: randomUUID(), handle: 'corner-cafe' } });
    expect(capabilities.map((c) => c.capabilityId)).toEqual(['commerce_api', 'site_builder', 'stable_value', 'cards_and_wallets']);
    for (const capability of capabilities) {
      expect(capability.setUp).toBe(false);
      expect(capability.nextStep).toMatch(/the commerce service does not .+ yet\.$/);
    }
    expect(capabilities[0]?.nextStep).toBe(
      'The embeddable checkout becomes available in a later release; the commerce service does not create checkouts yet.',
    );
  });

  it('answers SERVING on grpc.health.v1, for the server and for CommerceService', async () => {
    const address = `127.0.0.1:${service.port}`;
    expect(await grpcHealthStatus(address)).toBe('SERVING');
    expect(await grpcHealthStatus(address, 'ctk.commerce.v1.CommerceService')).toBe('SERVING');
  });
});
