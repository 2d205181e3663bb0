import { grpcHealthStatus, createTestClient } from '@ctk/shared/testing';
import { randomUUID } from 'node:crypto';
import { CommerceServiceDefinition } from '@ctk/proto/ctk/commerce/v1/commerce';
import { loadConfig, startService, type GrpcClient, type RunningService } from '@ctk/shared';
import { createTestDatabase, TEST_DATA_DIR } from '@ctk/shared/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configSchema, service as commerce } from '../src/app.js';

describe('commerce service', () => {
  let service: RunningService;
  let client: GrpcClient<typeof CommerceServiceDefinition>;
  beforeAll(async () => {
    const url = await createTestDatabase('commerce');
    const database = { CTK_DATA_DIR: TEST_DATA_DIR, ...(url ? { DATABASE_URL: url } : {}) };
    // pos is down: nothing here needs it.
    service = await startService(
      commerce,
      loadConfig(configSchema, { GRPC_PORT: '0', LOG_LEVEL: 'silent', POS_GRPC_URL: '127.0.0.1:1', ...database }),
    );
    client = createTestClient(CommerceServiceDefinition, `127.0.0.1:${service.port}`);
  });
  afterAll(async () => {
    client.close();
    await service.close();
  });

  it('reports the Commerce API as set up, the site builder as a site to publish, and stable value not built yet with an honest next step', async () => {
    const { capabilities } = await client.getSetup({ org: { id: randomUUID(), handle: 'corner-cafe' } });
    expect(capabilities.map((c) => c.capabilityId)).toEqual(['commerce_api', 'site_builder', 'stable_value', 'cards_and_wallets']);
    expect(capabilities[0]).toEqual({ capabilityId: 'commerce_api', setUp: true, nextStep: '' });
    // Set up once a site is published (site-publishing.test.ts publishes one).
    expect(capabilities[1]).toEqual({
      capabilityId: 'site_builder',
      setUp: false,
      nextStep: expect.stringContaining('POST /api/v1/orgs/corner-cafe/site/publish'),
    });
    expect(capabilities[2]).toMatchObject({ capabilityId: 'stable_value', setUp: false });
    expect(capabilities[2]!.nextStep).toMatch(/the commerce service does not .+ yet\.$/);
    // Card and wallet providers are built: set up once the organisation connects one (provider-payments.test.ts).
    expect(capabilities[3]).toEqual({
      capabilityId: 'cards_and_wallets',
      setUp: false,
      nextStep: expect.stringContaining('PUT /api/v1/orgs/corner-cafe/payment-providers/card-provider'),
    });
  });

  it('answers unavailable while pos is down, rather than an empty catalog', async () => {
    await expect(client.getCatalog({ org: { id: randomUUID(), handle: 'corner-cafe' } })).rejects.toMatchObject({ code: 'unavailable' });
  });

  it('answers SERVING on grpc.health.v1, for the server and for CommerceService', async () => {
    const address = `127.0.0.1:${service.port}`;
    expect(await grpcHealthStatus(address)).toBe('SERVING');
    expect(await grpcHealthStatus(address, 'ctk.commerce.v1.CommerceService')).toBe('SERVING');
  });
});
