import { loadConfig } from '@ctk/shared';
import { describe, expect, it } from 'vitest';
import { configSchema } from './config.js';

describe('contracts config', () => {
  it('applies the defaults when nothing is set: its port, p2p at its own, the local chain, an embedded database', () => {
    const config = loadConfig(configSchema, {});
    expect(config).toMatchObject({
      GRPC_HOST: '127.0.0.1',
      GRPC_PORT: 50066,
      LOG_LEVEL: 'info',
      P2P_GRPC_URL: '127.0.0.1:50064',
      CHAIN_NETWORK: 'local',
    });
    expect(config.DATABASE_URL).toBeUndefined();
  });

  it('accepts port 0, meaning any free port', () => {
    expect(loadConfig(configSchema, { GRPC_PORT: '0' }).GRPC_PORT).toBe(0);
  });

  it('rejects a bad port and an unknown chain network, naming each', () => {
    expect(() => loadConfig(configSchema, { GRPC_PORT: 'not-a-port' })).toThrow(/GRPC_PORT/);
    expect(() => loadConfig(configSchema, { CHAIN_NETWORK: 'moon' })).toThrow(/CHAIN_NETWORK/);
  });
});
