import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { loggerOptions } from '../src/logger.js';

const FIXTURE = fileURLToPath(new URL('./fixtures/log-lines.ts', import.meta.url));

/** The JSON lines createLogger writes for these objects, logged at info in a child process. */
async function logThroughCreateLogger(objects: object[], level = 'info'): Promise<Array<Record<string, unknown>>> {
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', FIXTURE, JSON.stringify(objects), level], {
    cwd: fileURLToPath(new URL('..', import.meta.url)),
  });
  return stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** The same pino options as createLogger, with a destination a test can read. */
function logThroughPino(object: object): Record<string, unknown> {
  const lines: string[] = [];
  const logger = pino(loggerOptions('test'), { write: (line: string) => lines.push(line) });
  logger.info(object, 'line');
  expect(lines).toHaveLength(1);
  return JSON.parse(lines[0]!) as Record<string, unknown>;
}

describe('createLogger', () => {
  it('writes JSON lines carrying its name, level and message, with credentials redacted', async () => {
    const [line] = await logThroughCreateLogger([
      {
        req: {
          headers: { authorization: 'Bearer tok_live', 'x-commerce-key': 'ck_live', cookie: 'session=abc', accept: 'application/json' },
        },
        headers: { authorization: 'Basic dXNlcjpwYXNz' },
        api_key: 'key_top',
        secret: 'whsec_top',
        signature: 'sig_top',
        password: 'hunter2',
        body: { api_key: 'key_nested', secret: 'whsec_nested', signature: 'sig_nested', sku: 'SKU-1' },
        orgHandle: 'corner-cafe',
      },
    ]);
    expect(line).toMatchObject({
      level: 30,
      name: 'log-lines',
      msg: 'line',
      req: { headers: { authorization: '[redacted]', 'x-commerce-key': '[redacted]', cookie: '[redacted]', accept: 'application/json' } },
      headers: { authorization: '[redacted]' },
      api_key: '[redacted]',
      secret: '[redacted]',
      signature: '[redacted]',
      password: '[redacted]',
      body: { api_key: '[redacted]', secret: '[redacted]', signature: '[redacted]', sku: 'SKU-1' },
      orgHandle: 'corner-cafe',
    });
    const text = JSON.stringify(line);
    for (const leaked of ['tok_live', 'ck_live', 'session=abc', 'dXNlcjpwYXNz', 'key_top', 'whsec_', 'sig_', 'hunter2', 'key_nested']) {
      expect(text).not.toContain(leaked);
    }
  });

  it('writes nothing below its level', async () => {
    expect(await logThroughCreateLogger([{ a: 1 }], 'warn')).toEqual([]);
    expect(await logThroughCreateLogger([{ a: 1 }], 'silent')).toEqual([]);
    expect(await logThroughCreateLogger([{ a: 1 }], 'debug')).toHaveLength(1);
  });

  // Fails today: 'password' is the one body credential listed without its '*.password' twin.
  it('redacts a password one level down, as it does api_key, secret and signature', async () => {
    const [line] = await logThroughCreateLogger([{ body: { email: 'a@example.com', password: 'hunter2' } }]);
    expect(line).toMatchObject({ body: { email: 'a@example.com', password: '[redacted]' } });
  });
});

describe('REDACT_PATHS', () => {
  it('redacts authorization headers on a request and on bare headers', () => {
    expect(logThroughPino({ req: { headers: { authorization: 'Bearer a' } }, headers: { authorization: 'Bearer b' } })).toMatchObject({
      req: { headers: { authorization: '[redacted]' } },
      headers: { authorization: '[redacted]' },
    });
  });

  it('redacts api_key and secret at the top level and one level down', () => {
    expect(logThroughPino({ api_key: 'k', secret: 's', key: { api_key: 'k' }, webhook: { secret: 's' } })).toMatchObject({
      api_key: '[redacted]',
      secret: '[redacted]',
      key: { api_key: '[redacted]' },
      webhook: { secret: '[redacted]' },
    });
  });

  it('leaves other fields as they are', () => {
    const line = logThroughPino({ req: { headers: { accept: 'text/plain' } }, sku: 'SKU-1', apiKeyId: 'key_123' });
    expect(line).toMatchObject({ req: { headers: { accept: 'text/plain' } }, sku: 'SKU-1', apiKeyId: 'key_123' });
  });

  // Fails today: the cookie and API-key headers are redacted under req.headers only, authorization under both.
  it('redacts every credential header under bare headers too, as it does authorization', () => {
    expect(logThroughPino({ headers: { cookie: 'session=abc', 'x-commerce-key': 'ck_live' } })).toMatchObject({
      headers: { cookie: '[redacted]', 'x-commerce-key': '[redacted]' },
    });
  });
});
