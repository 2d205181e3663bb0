import { loadConfig } from '@ctk/shared';
import { describe, expect, it } from 'vitest';
import { configSchema } from './config.js';

describe('pos config', () => {
  it('applies the defaults when nothing is set', () => {
    expect(loadConfig(configSchema, {})).toEqual({
      GRPC_HOST: '127.0.0.1',
      GRPC_PORT: 50062,
      LOG_LEVEL: 'info',
      OTEL_TRACES_SAMPLER_ARG: 1,
      OTEL_BSP_SCHEDULE_DELAY: 5000,
      DATABASE_URL: undefined,
      CTK_DATA_DIR: '.data',
      NATS_URL: undefined,
      BOOKS_GRPC_URL: '127.0.0.1:50061',
      P2P_GRPC_URL: '127.0.0.1:50064',
      CHAIN_NETWORK: 'local',
      POS_TAX_KEEP_SECONDS: 60,
      POS_ITEMS_CACHE_MS: 2000,
      POS_OCR_TIMEOUT_MS: 15_000,
      POS_OCR_MAX_WAITING: 3,
      POS_PRICE_SOURCE: 'fixed',
      POS_FIXED_RATES: 'USD=20000,EUR=20000,GBP=20000,AUD=20000,CAD=20000,JPY=2000000',
      POS_PRICE_URL: 'https://api.coingecko.com/api/v3/simple/price?ids=bitcoin-cash-sv&vs_currencies={currency}',
      POS_PRICE_CACHE_SECONDS: 60,
      POS_PRICE_MAX_AGE_SECONDS: 600,
      POS_ORDER_TTL_SECONDS: 900,
      POS_WATCH_INTERVAL_MS: 5000,
      POS_LATE_PAYMENT_SECONDS: 3600,
      POS_PAY_LINK_OPENS_PER_CLIENT: 2,
    });
  });

  it('accepts port 0 and a PostgreSQL URL', () => {
    const config = loadConfig(configSchema, { GRPC_PORT: '0', DATABASE_URL: 'postgresql://postgres@127.0.0.1:5432/pos' });
    expect(config.GRPC_PORT).toBe(0);
    expect(config.DATABASE_URL).toBe('postgresql://postgres@127.0.0.1:5432/pos');
  });

  it('rejects fixed rates that are not CODE=decimal pairs, and a price URL that is not http(s), naming the variable', () => {
    expect(() => loadConfig(configSchema, { POS_FIXED_RATES: 'USD=1,EUR=abc' })).toThrow(/POS_FIXED_RATES/);
    expect(() => loadConfig(configSchema, { POS_FIXED_RATES: 'USD=0' })).toThrow(/POS_FIXED_RATES/);
    expect(() => loadConfig(configSchema, { POS_PRICE_URL: 'ftp://rates.example.com' })).toThrow(/POS_PRICE_URL/);
  });

  it('rejects a bad port, naming GRPC_PORT', () => {
    expect(() => loadConfig(configSchema, { GRPC_PORT: '70000' })).toThrow(/GRPC_PORT/);
  });

  it('rejects a database URL that is not PostgreSQL, naming DATABASE_URL', () => {
    expect(() => loadConfig(configSchema, { DATABASE_URL: 'mysql://localhost/pos' })).toThrow(/DATABASE_URL/);
  });

  it('reads wallet pass PEM written on one line with \\n, and refuses what is not PEM of its kind or not an identifier, naming the variable', () => {
    const certificate = '-----BEGIN CERTIFICATE-----\\nMIIB\\n-----END CERTIFICATE-----';
    expect(loadConfig(configSchema, { POS_APPLE_PASS_CERT: certificate }).POS_APPLE_PASS_CERT).toBe(
      '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----',
    );
    expect(() => loadConfig(configSchema, { POS_APPLE_WWDR_CERT: 'MIIB' })).toThrow(/POS_APPLE_WWDR_CERT/);
    expect(() => loadConfig(configSchema, { POS_APPLE_PASS_KEY: certificate })).toThrow(/POS_APPLE_PASS_KEY/);
    expect(() => loadConfig(configSchema, { POS_APPLE_PASS_TYPE_ID: 'com.example.loyalty' })).toThrow(/POS_APPLE_PASS_TYPE_ID/);
    expect(() => loadConfig(configSchema, { POS_APPLE_TEAM_ID: 'abc' })).toThrow(/POS_APPLE_TEAM_ID/);
    expect(() => loadConfig(configSchema, { POS_GOOGLE_SERVICE_ACCOUNT: '{"client_email":"a@b.c"}' })).toThrow(
      /POS_GOOGLE_SERVICE_ACCOUNT/,
    );
    expect(() => loadConfig(configSchema, { POS_GOOGLE_ISSUER_ID: 'issuer' })).toThrow(/POS_GOOGLE_ISSUER_ID/);
    expect(loadConfig(configSchema, { POS_APPLE_PASS_CERT: '', POS_GOOGLE_ISSUER_ID: '' }).POS_APPLE_PASS_CERT).toBeUndefined();
  });
});
