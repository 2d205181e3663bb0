import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { AppError, type Logger } from '@ctk/shared';

export type Request = { params: string[]; query: URLSearchParams; body: Buffer; contentType: string };
export type Reply = { status: number; json?: unknown; text?: string };
export type Route = {
  method: 'GET' | 'POST';
  path: RegExp;
  handle: (request: Request) => Reply | Promise<Reply>;
  /** How the route answers an AppError (ARC's RFC 7807 body, say); `{"error": {code, message, details?}}` otherwise. */
  errorReply?: (error: AppError) => Reply;
};

const BODY_LIMIT = 32 * 1024 * 1024;

/**
 * How long an idle connection is kept: longer than any client keeps one (undici, fetch's engine, at most
 * 10 minutes), so the client always closes it first. A server that closes an idle socket just as a client
 * reuses it resets that request (ECONNRESET); Node's default of 5 s did, on a loaded machine.
 */
const KEEP_ALIVE_MS = 11 * 60_000;

/** A plain node:http server over a list of routes; an AppError answers in the route's error shape. */
export function createRouterServer(routes: Route[], logger: Logger): Server {
  const server = createServer((req, res) => {
    void handle(routes, req, res, logger);
  });
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  return server;
}

async function handle(routes: Route[], req: IncomingMessage, res: ServerResponse, logger: Logger): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://local');
  const candidates = routes.filter((route) => route.path.test(url.pathname));
  const route = candidates.find((candidate) => candidate.method === req.method);
  if (!route) {
    const status = candidates.length > 0 ? 405 : 404;
    return send(res, {
      status,
      json: { error: { code: status === 404 ? 'route_not_found' : 'method_not_allowed', message: `${req.method} ${url.pathname}` } },
    });
  }
  try {
    const body = await readBody(req);
    const params = route.path.exec(url.pathname)!.slice(1);
    const contentType = (req.headers['content-type'] ?? 'application/octet-stream').toLowerCase();
    send(res, await route.handle({ params, query: url.searchParams, body, contentType }));
  } catch (caught) {
    if (!AppError.is(caught)) logger.error({ err: caught, url: req.url }, 'local chain request failed');
    const error = AppError.is(caught) ? caught : new AppError('internal', 'Internal error');
    // A body left unread (one over the limit) would be read as the next request on this connection.
    if (!req.complete) res.setHeader('connection', 'close');
    const body = { code: error.code, message: error.message, ...(error.details ? { details: error.details } : {}) };
    send(res, route.errorReply?.(error) ?? { status: error.httpStatus, json: { error: body } });
  }
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const tooLarge = () => new AppError('payload_too_large', `The body is over ${BODY_LIMIT} bytes.`);
  if (Number(req.headers['content-length'] ?? 0) > BODY_LIMIT) throw tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > BODY_LIMIT) throw tooLarge();
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function send(res: ServerResponse, reply: Reply): void {
  if (res.headersSent) return;
  if (reply.text !== undefined) {
    res.writeHead(reply.status, { 'content-type': 'text/plain; charset=utf-8' }).end(reply.text);
  } else {
    // A newline after the JSON (which parsers ignore) ends the line a person curling the faucet sees.
    res.writeHead(reply.status, { 'content-type': 'application/json; charset=utf-8' }).end(`${JSON.stringify(reply.json ?? null)}\n`);
  }
}

/** A JSON body as an object, or a 400. */
export function jsonBody(request: Request): Record<string, unknown> {
  if (request.body.length === 0) return {};
  try {
    const parsed: unknown = JSON.parse(request.body.toString('utf8'));
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    // answered below
  }
  throw new AppError('bad_request', 'The body must be a JSON object.');
}
