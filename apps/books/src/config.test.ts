import { loadConfig } from '@ctk/shared';
import { describe, expect, it } from 'vitest';
import { configSchema } from './config.js';

describe('books config', () => {
  it('applies the defaults when nothing is set', () => {
    expect(loadConfig(configSchema, {})).toEqual({
      GRPC_HOST: '127.0.0.1',
      GRPC_PORT: 50061,
      LOG_LEVEL: 'info',
      OTEL_TRACES_SAMPLER_ARG: 1,
      OTEL_BSP_SCHEDULE_DELAY: 5000,
      DATABASE_URL: undefined,
      CTK_DATA_DIR: '.data',
      NATS_URL: undefined,
      BOOKS_EXPORT_MAX_ENTRIES: 50_000,
    });
  });

  it('takes the export cap as a positive integer, naming BOOKS_EXPORT_MAX_ENTRIES otherwise', () => {
    expect(loadConfig(configSchema, { BOOKS_EXPORT_MAX_ENTRIES: '1000' }).BOOKS_EXPORT_MAX_ENTRIES).toBe(1000);
    expect(() => loadConfig(configSchema, { BOOKS_EXPORT_MAX_ENTRIES: '0' })).toThrow(/BOOKS_EXPORT_MAX_ENTRIES/);
  });

  it('accepts port 0, meaning any free port, and a PostgreSQL URL', () => {
    const config = loadConfig(configSchema, { GRPC_PORT: '0', DATABASE_URL: 'postgresql://postgres@127.0.0.1:5432/books' });
    expect(config.GRPC_PORT).toBe(0);
    expect(config.DATABASE_URL).toBe('postgresql://postgres@127.0.0.1:5432/books');
  });

  it('reads tracing settings by OpenTelemetry names, and refuses a malformed one, naming it', () => {
    const config = loadConfig(configSchema, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_TRACES_SAMPLER_ARG: '0.25' });
    expect(config).toMatchObject({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_TRACES_SAMPLER_ARG: 0.25 });
    expect(() => loadConfig(configSchema, { OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' })).toThrow(/OTEL_EXPORTER_OTLP_ENDPOINT/);
    expect(() => loadConfig(configSchema, { OTEL_TRACES_SAMPLER_ARG: '2' })).toThrow(/OTEL_TRACES_SAMPLER_ARG/);
  });

  it('rejects a bad port, naming GRPC_PORT', () => {
    expect(() => loadConfig(configSchema, { GRPC_PORT: 'not-a-port' })).toThrow(/GRPC_PORT/);
  });

  it('rejects a database URL that is not PostgreSQL, naming DATABASE_URL', () => {
    expect(() => loadConfig(configSchema, { DATABASE_URL: 'mysql://localhost/books' })).toThrow(/DATABASE_URL/);
  });

  it('takes a nats:// URL for the payment events, and an empty NATS_URL as unset', () => {
    expect(loadConfig(configSchema, { NATS_URL: 'nats://127.0.0.1:4222' }).NATS_URL).toBe('nats://127.0.0.1:4222');
    expect(loadConfig(configSchema, { NATS_URL: '' }).NATS_URL).toBeUndefined();
  });

  it('rejects a NATS URL of another scheme, naming NATS_URL', () => {
    expect(() => loadConfig(configSchema, { NATS_URL: 'http://127.0.0.1:4222' })).toThrow(/NATS_URL/);
    expect(() => loadConfig(configSchema, { NATS_URL: '127.0.0.1:4222' })).toThrow(/NATS_URL/);
  });
});
