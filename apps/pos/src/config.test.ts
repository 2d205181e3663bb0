import { loadConfig } from '@ctk/shared';
import { describe, expect, it } from 'vitest';
import { configSchema } from './config.js';

describe('pos config', () => {
  it('applies the defaults when nothing is set', () => {
    expect(loadConfig(configSchema, {})).toEqual({
      GRPC_HOST: '127.0.0.1',
      GRPC_PORT: 50062,
      LOG_LEVEL: 'info',
      DATABASE_URL: undefined,
      CTK_DATA_DIR: '.data',
      POS_ITEMS_CACHE_MS: 2000,
      POS_OCR_TIMEOUT_MS: 15_000,
      POS_OCR_MAX_WAITING: 3,
    });
  });

  it('accepts port 0 and a PostgreSQL URL', () => {
    const config = loadConfig(configSchema, { GRPC_PORT: '0', DATABASE_URL: 'postgresql://postgres@127.0.0.1:5432/pos' });
    expect(config.GRPC_PORT).toBe(0);
    expect(config.DATABASE_URL).toBe('postgresql://postgres@127.0.0.1:5432/pos');
  });

  it('rejects a bad port, naming GRPC_PORT', () => {
    expect(() => loadConfig(configSchema, { GRPC_PORT: '70000' })).toThrow(/GRPC_PORT/);
  });

  it('rejects a database URL that is not PostgreSQL, naming DATABASE_URL', () => {
    expect(() => loadConfig(configSchema, { DATABASE_URL: 'mysql://localhost/pos' })).toThrow(/DATABASE_URL/);
  });
});
