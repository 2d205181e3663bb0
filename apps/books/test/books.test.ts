import { grpcHealthStatus } from '@ctk/shared/testing';
import { randomUUID } from 'node:crypto';
import { BooksServiceDefinition } from '@ctk/proto/ctk/books/v1/books';
import { createGrpcClient, loadConfig, type GrpcClient } from '@ctk/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configSchema, startBooks } from '../src/app.js';

describe('books service', () => {
  let service: Awaited<ReturnType<typeof startBooks>>;
  let client: GrpcClient<typeof BooksServiceDefinition>;
  beforeAll(async () => {
    service = await startBooks(loadConfig(configSchema, { GRPC_PORT: '0', LOG_LEVEL: 'silent' }));
    client = createGrpcClient(BooksServiceDefinition, `127.0.0.1:${service.port}`);
  });
  afterAll(async () => {
    client.close();
    await service.close();
  });

  it('reports every capability books owns as not set up yet, each with an honest next step', async () => {
    const { capabilities } = await client.getSetup({ org: { id: randomUUID(), handle: 'corner-cafe' } });
    expect(capabilities.map((c) => c.capabilityId)).toEqual(['ledger', 'sales_tax', 'receipts', 'reports']);
    for (const capability of capabilities) {
      expect(capability.setUp).toBe(false);
      expect(capability.nextStep).toMatch(/the books service does not .+ yet\.$/);
    }
    expect(capabilities[0]?.nextStep).toBe('Ledger entries appear once payments are recorded; the books service does not record payments yet.');
  });

  it('answers SERVING on grpc.health.v1, for the server and for BooksService', async () => {
    const address = `127.0.0.1:${service.port}`;
    expect(await grpcHealthStatus(address)).toBe('SERVING');
    expect(await grpcHealthStatus(address, 'ctk.books.v1.BooksService')).toBe('SERVING');
  });
});
