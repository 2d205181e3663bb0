import { configSchema as p2pConfigSchema, service as p2pService } from '@ctk/p2p';
import { loadConfig, startService } from '@ctk/shared';
import { createTestDatabase, TEST_DATA_DIR } from '@ctk/shared/testing';
import { startTestGateway, type Gateway } from './harness.js';
import { SERVICES_DOWN } from './support.js';

export type ReceiptInstance = { app: Gateway['app']; close(): Promise<void> };

/**
 * An instance as far as receipts go: its own gateway and its own p2p service (which reads the chain),
 * each on its own database, configured with a chain.
 */
export async function startReceiptInstance(chainEnv: Record<string, string>): Promise<ReceiptInstance> {
  const databaseUrl = await createTestDatabase('p2p');
  const p2p = await startService(
    p2pService,
    loadConfig(p2pConfigSchema, {
      GRPC_PORT: '0',
      LOG_LEVEL: 'silent',
      CTK_DATA_DIR: TEST_DATA_DIR,
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      ...chainEnv,
    }),
  );
  const gateway = await startTestGateway({ ...SERVICES_DOWN, P2P_GRPC_URL: `127.0.0.1:${p2p.port}` });
  return {
    app: gateway.app,
    async close() {
      await gateway.close();
      await p2p.close();
    },
  };
}
