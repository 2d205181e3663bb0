import { loadConfig } from '@ctk/shared';
import { describe, expect, it } from 'vitest';
import { configSchema } from './config.js';

describe('p2p config', () => {
  it('applies the defaults when nothing is set: the local chain, 15-minute references, 5 minutes of clock skew', () => {
    expect(loadConfig(configSchema, {})).toMatchObject({
      GRPC_HOST: '127.0.0.1',
      GRPC_PORT: 50064,
      LOG_LEVEL: 'info',
      CTK_DATA_DIR: '.data',
      CHAIN_NETWORK: 'local',
      P2P_REFERENCE_TTL_SECONDS: 900,
      P2P_DT_TOLERANCE_SECONDS: 300,
      P2P_PASSTHROUGH_TIMEOUT_MS: 10_000,
      P2P_PASSTHROUGH_MAX_BYTES: 1_048_576,
    });
  });

  it('accepts port 0, meaning any free port', () => {
    expect(loadConfig(configSchema, { GRPC_PORT: '0' }).GRPC_PORT).toBe(0);
  });

  it('rejects a bad port, naming GRPC_PORT, and a reference lifetime under a minute', () => {
    expect(() => loadConfig(configSchema, { GRPC_PORT: 'not-a-port' })).toThrow(/GRPC_PORT/);
    expect(() => loadConfig(configSchema, { P2P_REFERENCE_TTL_SECONDS: '5' })).toThrow(/P2P_REFERENCE_TTL_SECONDS/);
  });
});
