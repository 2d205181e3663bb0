import { loadConfig } from '@ctk/shared';
import { describe, expect, it } from 'vitest';
import { configSchema } from './config.js';

describe('p2p config', () => {
  it('applies the defaults when nothing is set', () => {
    expect(loadConfig(configSchema, {})).toEqual({ GRPC_HOST: '127.0.0.1', GRPC_PORT: 50064, LOG_LEVEL: 'info' });
  });

  it('accepts port 0, meaning any free port', () => {
    expect(loadConfig(configSchema, { GRPC_PORT: '0' }).GRPC_PORT).toBe(0);
  });

  it('rejects a bad port, naming GRPC_PORT', () => {
    expect(() => loadConfig(configSchema, { GRPC_PORT: 'not-a-port' })).toThrow(/GRPC_PORT/);
  });
});
