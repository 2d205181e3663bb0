import { grpcUrlVariable, loadConfig, SERVICE_NAMES, SERVICES } from '@ctk/shared';
import { describe, expect, it } from 'vitest';
import { configSchema } from '../src/config.js';

/** The gateway's configuration as the bootstrap reads it from the environment. */
const readConfig = (env: Record<string, string>) => loadConfig(configSchema, env);

describe('the gateway configuration', () => {
  it('fills in the defaults when nothing is set', () => {
    const config = readConfig({});
    expect(config).toMatchObject({
      PORT: 8080,
      HOST: '127.0.0.1',
      CTK_PUBLIC_URL: 'http://localhost:8080',
      CTK_BODY_LIMIT_BYTES: 256 * 1024,
      POS_GRPC_URL: '127.0.0.1:50062',
    });
    expect(config.DATABASE_URL).toBeUndefined();
  });

  it('points the public URL at its own port when CTK_PUBLIC_URL is not set, so a second instance on another port points at itself', () => {
    expect(readConfig({ PORT: '8081' }).CTK_PUBLIC_URL).toBe('http://localhost:8081');
    expect(readConfig({ PORT: '8081', CTK_PUBLIC_URL: '' }).CTK_PUBLIC_URL).toBe('http://localhost:8081');
    expect(readConfig({ PORT: '8081', CTK_PUBLIC_URL: 'https://pay.example.com' }).CTK_PUBLIC_URL).toBe('https://pay.example.com');
  });

  it('has an address for every service of the registry, its registry port by default', () => {
    const config = readConfig({ BOOKS_GRPC_URL: 'books:50051' });
    for (const name of SERVICE_NAMES) expect(config[grpcUrlVariable(name)]).toMatch(/^[\w.-]+:\d+$/);
    expect(config.BOOKS_GRPC_URL).toBe('books:50051');
    expect(config.P2P_GRPC_URL).toBe(`127.0.0.1:${SERVICES.p2p.grpcPort}`);
  });

  it('reads numbers from their strings', () => {
    expect(readConfig({ PORT: '9090', CTK_RATE_LIMIT_PER_MINUTE: '5' })).toMatchObject({ PORT: 9090, CTK_RATE_LIMIT_PER_MINUTE: 5 });
  });

  it.each([['not-a-port'], ['70000'], ['-1'], ['80.5']])('throws naming PORT when PORT is %s', (port) => {
    expect(() => readConfig({ PORT: port })).toThrow(/PORT/);
  });

  it('names every invalid variable at once', () => {
    let message = '';
    try {
      readConfig({ PORT: 'x', CTK_PUBLIC_URL: 'not a url', POS_GRPC_URL: 'nohostport' });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('PORT');
    expect(message).toContain('CTK_PUBLIC_URL');
    expect(message).toContain('POS_GRPC_URL');
    expect(message).not.toContain('HOST');
  });

  it('refuses a body limit below 1024 bytes and a DATABASE_URL that is not PostgreSQL', () => {
    expect(() => readConfig({ CTK_BODY_LIMIT_BYTES: '100' })).toThrow(/CTK_BODY_LIMIT_BYTES/);
    expect(() => readConfig({ DATABASE_URL: 'mysql://localhost/db' })).toThrow(/DATABASE_URL/);
  });
});
