import { describe, expect, it } from 'vitest';
import { readConfig } from '../src/config.js';

describe('readConfig', () => {
  it('fills in the defaults when nothing is set', () => {
    const config = readConfig({});
    expect(config).toMatchObject({
      PORT: 8080,
      HOST: '127.0.0.1',
      CTK_PUBLIC_URL: 'http://localhost:8080',
      CTK_WEBHOOK_TOLERANCE_SECONDS: 300,
      CTK_BODY_LIMIT_BYTES: 256 * 1024,
      POS_GRPC_URL: '127.0.0.1:50062',
    });
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.CTK_WEBHOOK_SECRET_CARD_PROVIDER).toBeUndefined();
  });

  it('reads numbers from their strings', () => {
    expect(readConfig({ PORT: '9090', CTK_RATE_LIMIT_PER_MINUTE: '5' })).toMatchObject({ PORT: 9090, CTK_RATE_LIMIT_PER_MINUTE: 5 });
  });

  it.each([['not-a-port'], ['70000'], ['-1'], ['80.5']])('throws naming PORT when PORT is %s', (port) => {
    expect(() => readConfig({ PORT: port })).toThrow(/PORT/);
  });

  it.each([['CTK_WEBHOOK_SECRET_CARD_PROVIDER'], ['CTK_WEBHOOK_SECRET_WALLET_PROVIDER']])(
    'throws naming %s when the secret is shorter than 16 characters',
    (name) => {
      expect(() => readConfig({ [name]: 'too-short' })).toThrow(new RegExp(`${name}.*16`));
    },
  );

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
