import { randomUUID } from 'node:crypto';
import { OrgRef } from '@ctk/proto/ctk/common/v1/common';
import { PosServiceDefinition, type CreateItemRequest } from '@ctk/proto/ctk/pos/v1/pos';
import { loadConfig } from '@ctk/shared';
import { createTestDatabase, startBuiltService, TEST_DATA_DIR, createTestClient } from '@ctk/shared/testing';
import { buildPos, configSchema, service as pos } from '../src/app.js';

/** pos on a free port with its own database (PostgreSQL when CTK_TEST_POSTGRES_URL is set), and a client. */
export async function startTestPos() {
  const config = loadConfig(configSchema, {
    GRPC_PORT: '0',
    LOG_LEVEL: 'silent',
    DATABASE_URL: await createTestDatabase('pos'),
    CTK_DATA_DIR: TEST_DATA_DIR,
  });
  const service = await startBuiltService(pos, buildPos, config);
  const client = createTestClient(PosServiceDefinition, `127.0.0.1:${service.port}`);
  return {
    port: service.port,
    client,
    /** The wallet pass maker pos runs with (its development keys made at start). */
    passes: service.cards.passes,
    async close() {
      client.close();
      await service.close();
    },
  };
}

export function newOrg(): OrgRef {
  const id = randomUUID();
  return OrgRef.fromPartial({ id, handle: `shop-${id.slice(0, 8)}` });
}

export function newItem(org: OrgRef, overrides: Partial<CreateItemRequest> = {}): Partial<CreateItemRequest> {
  return { org, name: 'Flat white', priceCents: 450n, currency: 'USD', available: true, ...overrides };
}
