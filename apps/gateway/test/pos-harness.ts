import { configSchema as posConfigSchema, service as posService } from '@ctk/pos';
import { loadConfig, startService } from '@ctk/shared';
import { createTestDatabase, TEST_DATA_DIR } from '@ctk/shared/testing';
import { startTestGateway } from './harness.js';
import { SERVICES_DOWN } from './support.js';

/** The pos service on a free port with its own database, and a gateway pointed at it (every other service down). */
export async function startPosStack() {
  const databaseUrl = await createTestDatabase('pos');
  const pos = await startService(
    posService,
    loadConfig(posConfigSchema, {
      GRPC_PORT: '0',
      LOG_LEVEL: 'silent',
      CTK_DATA_DIR: TEST_DATA_DIR,
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    }),
  );
  const gateway = await startTestGateway({ ...SERVICES_DOWN, POS_GRPC_URL: `127.0.0.1:${pos.port}` });
  return {
    gateway,
    async close() {
      await gateway.close();
      await pos.close();
    },
  };
}
