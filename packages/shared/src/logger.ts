import { pino, type Logger, type LoggerOptions } from 'pino';

export type { Logger };

/** Paths never written to logs: credentials in headers and bodies. */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers["x-commerce-key"]',
  'req.headers.cookie',
  'headers.authorization',
  'headers["x-commerce-key"]',
  'headers.cookie',
  'api_key',
  '*.api_key',
  'secret',
  '*.secret',
  'signature',
  '*.signature',
  'password',
  '*.password',
];

export function createLogger(name: string, level: LoggerOptions['level'] = 'info'): Logger {
  return pino({ name, level, redact: { paths: REDACT_PATHS, censor: '[redacted]' } });
}
