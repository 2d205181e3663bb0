import { pino, type Logger, type LoggerOptions } from 'pino';
import { logFieldsOfContext } from './tracing/context.js';

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
  // Provider webhook secrets (decision 0019), as the gateway's body and commerce's call name them.
  'webhook_secret',
  '*.webhook_secret',
  'webhookSecret',
  '*.webhookSecret',
  'req.headers["stripe-signature"]',
  'req.headers["x-wallet-provider-signature"]',
];

/** How long a log line may wait in the buffer before it is written. */
const FLUSH_MS = 200;
let stdout: ReturnType<typeof pino.destination> | undefined;

/**
 * Standard output, buffered: lines are written when 4 KiB have gathered, at least every FLUSH_MS, and
 * at exit (pino flushes on the process's exit), so a busy service makes one write per batch of lines
 * rather than one per line. One buffer for every logger in the process.
 */
function bufferedStdout(): ReturnType<typeof pino.destination> {
  if (!stdout) {
    const destination = pino.destination({ dest: 1, sync: false, minLength: 4096 });
    let closed = false;
    destination.on('close', () => (closed = true));
    // A flush of an empty buffer still writes (an empty string, through libuv's thread pool): an idle
    // service flushed five times a second for nothing. Only a line written since the last flush is flushed.
    let waiting = false;
    const write = destination.write.bind(destination);
    destination.write = (line: string) => {
      waiting = true;
      return write(line);
    };
    setInterval(() => {
      if (closed || !waiting) return;
      waiting = false;
      destination.flush();
    }, FLUSH_MS).unref();
    stdout = destination;
  }
  return stdout;
}

/**
 * The options of every logger: JSON lines with credentials redacted, and every line written while a request
 * is handled names it: `reqId`, and `trace_id` and `span_id` when traced (tracing/context.ts).
 */
export function loggerOptions(name: string, level: LoggerOptions['level'] = 'info'): LoggerOptions {
  return { name, level, redact: { paths: REDACT_PATHS, censor: '[redacted]' }, mixin: logFieldsOfContext };
}

export function createLogger(name: string, level: LoggerOptions['level'] = 'info'): Logger {
  return pino(loggerOptions(name, level), bufferedStdout());
}
