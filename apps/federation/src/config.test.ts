import { loadConfig } from '@ctk/shared';
import { describe, expect, it } from 'vitest';
import { configSchema } from './config.js';

describe('federation config', () => {
  it('applies the defaults when nothing is set: private peers refused, pulls every five minutes, 10,000 items a feed', () => {
    const config = loadConfig(configSchema, {});
    expect(config).toMatchObject({
      GRPC_PORT: 50065,
      FEDERATION_PUBLIC_URL: 'http://localhost:8080',
      FEDERATION_ALLOW_PRIVATE_PEERS: false,
      FEDERATION_PULL_INTERVAL_MS: 300_000,
      FEDERATION_FEED_MAX_ITEMS: 10_000,
      FEDERATION_SEED_PEERS: [],
      FEDERATION_ANONYMOUS_PINS_PER_DAY: 5,
    });
    expect(config.FEDERATION_INSTANCE_KEY).toBeUndefined();
  });

  it('reads the operator allowance, seeds and featured handles', () => {
    const config = loadConfig(configSchema, {
      FEDERATION_ALLOW_PRIVATE_PEERS: 'true',
      FEDERATION_SEED_PEERS: 'https://a.example, http://127.0.0.1:8081',
      FEDERATION_FEATURED: 'blue-bottle,corner-cafe',
    });
    expect(config.FEDERATION_ALLOW_PRIVATE_PEERS).toBe(true);
    expect(config.FEDERATION_SEED_PEERS).toEqual(['https://a.example', 'http://127.0.0.1:8081']);
    expect(config.FEDERATION_FEATURED).toEqual(['blue-bottle', 'corner-cafe']);
  });

  it('rejects a bad port, a seed that is not a URL and an instance key that is not 32 bytes, naming each', () => {
    expect(() => loadConfig(configSchema, { GRPC_PORT: 'not-a-port' })).toThrow(/GRPC_PORT/);
    expect(() => loadConfig(configSchema, { FEDERATION_SEED_PEERS: 'ftp://x' })).toThrow(/FEDERATION_SEED_PEERS/);
    expect(() => loadConfig(configSchema, { FEDERATION_INSTANCE_KEY: 'abc' })).toThrow(/FEDERATION_INSTANCE_KEY/);
  });
});
