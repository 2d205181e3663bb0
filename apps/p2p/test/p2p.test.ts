import { grpcHealthStatus } from '@ctk/shared/testing';
import { randomUUID } from 'node:crypto';
import { P2pServiceDefinition } from '@ctk/proto/ctk/p2p/v1/p2p';
import { createGrpcClient, loadConfig, type GrpcClient } from '@ctk/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configSchema, startP2p } from '../src/app.js';

describe('p2p service', () => {
  let service: Awaited<ReturnType<typeof startP2p>>;
  let client: GrpcClient<typeof P2pServiceDefinition>;
  beforeAll(async () => {
    service = await startP2p(loadConfig(configSchema, { GRPC_PORT: '0', LOG_LEVEL: 'silent' }));
    client = createGrpcClient(P2pServiceDefinition, `127.0.0.1:${service.port}`);
  });
  afterAll(async () => {
    client.close();
    await service.close();
  });

  it('reports every capability p2p owns as not set up yet, each with an honest next step', async () => {
    const { capabilities } = await client.getSetup({ org: { id: randomUUID(), handle: 'corner-cafe' } });
    expect(capabilities.map((c) => c.capabilityId)).toEqual(['paygate_402', 'paymail', 'wallet_api']);
    for (const capability of capabilities) {
      expect(capability.setUp).toBe(false);
      expect(capability.nextStep).toMatch(/the p2p service does not .+ yet\.$/);
    }
    expect(capabilities[0]?.nextStep).toBe('Pay-per-request gates become available in a later release; the p2p service does not price resources yet.');
  });

  it('answers SERVING on grpc.health.v1, for the server and for P2pService', async () => {
    const address = `127.0.0.1:${service.port}`;
    expect(await grpcHealthStatus(address)).toBe('SERVING');
    expect(await grpcHealthStatus(address, 'ctk.p2p.v1.P2pService')).toBe('SERVING');
  });
});
