import { loadConfig } from '@ctk/shared';
import { describe, expect, it } from 'vitest';
import { configSchema } from './config.js';

describe('commerce config', () => {
  it('applies the defaults when nothing is set', () => {
    expect(loadConfig(configSchema, {})).toMatchObject({
      GRPC_HOST: '127.0.0.1',
      GRPC_PORT: 50063,
      LOG_LEVEL: 'info',
      POS_GRPC_URL: '127.0.0.1:50062',
      COMMERCE_CATALOG_CACHE_MS: 2_000,
      FEDERATION_GRPC_URL: '127.0.0.1:50065',
      COMMERCE_SITES_KEEP_VERSIONS: 2,
    });
  });

  it("takes the sites' folder and the URL a host serves it at, refusing a URL that is not http(s)", () => {
    expect(
      loadConfig(configSchema, { COMMERCE_SITES_DIR: '/srv/sites', COMMERCE_SITES_BASE_URL: 'https://sites.example.com' }),
    ).toMatchObject({
      COMMERCE_SITES_DIR: '/srv/sites',
      COMMERCE_SITES_BASE_URL: 'https://sites.example.com',
    });
    expect(() => loadConfig(configSchema, { COMMERCE_SITES_BASE_URL: 'ftp://sites.example.com' })).toThrow(/COMMERCE_SITES_BASE_URL/);
  });

  it('accepts port 0, meaning any free port', () => {
    expect(loadConfig(configSchema, { GRPC_PORT: '0' }).GRPC_PORT).toBe(0);
  });

  it('rejects a bad port, naming GRPC_PORT, and a catalog cache above a minute', () => {
    expect(() => loadConfig(configSchema, { GRPC_PORT: 'not-a-port' })).toThrow(/GRPC_PORT/);
    expect(() => loadConfig(configSchema, { COMMERCE_CATALOG_CACHE_MS: '60001' })).toThrow(/COMMERCE_CATALOG_CACHE_MS/);
  });
});
