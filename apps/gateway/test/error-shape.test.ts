import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINTS } from '../src/catalog/endpoints.js';
import { onboard, startTestGateway, type Onboarded, type Gateway } from './harness.js';
import { concreteUrl, SERVICES_DOWN, uniqueName } from './support.js';

/**
 * Every refusal (decision 0025), the framework's and Node's own included, answers the documented
 * `{"error": {"code", "message", "request_id"}}`; credentials come once; unknown query parameters are
 * refused alike on every built route. Everything here goes over a real socket, as a client would send it.
 */

const BODY_LIMIT = 2048;

let gateway: Gateway;
let owner: Onboarded;

beforeAll(async () => {
  gateway = await startTestGateway({ ...SERVICES_DOWN, CTK_BODY_LIMIT_BYTES: String(BODY_LIMIT), CTK_REQUEST_TIMEOUT_SECONDS: '1' });
  owner = await onboard(gateway, uniqueName('Error Shape'));
});
afterAll(async () => {
  await gateway?.close();
});

type RawAnswer = { status: number; headers: Record<string, string>; body: string };

/** Sends bytes as they are and reads the answer until the server closes the connection (or it is complete). */
function raw(request: string | Buffer): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(gateway.port, '127.0.0.1', () => socket.write(request));
    let text = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no complete answer after 8 s: ${text.slice(0, 200)}`));
    }, 8000);
    const finish = () => {
      clearTimeout(timer);
      const [head = '', ...rest] = text.split('\r\n\r\n');
      const [statusLine = '', ...headerLines] = head.split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of headerLines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: rest.join('\r\n\r\n') });
    };
    socket.on('data', (chunk) => {
      text += chunk.toString();
      const [head, ...rest] = text.split('\r\n\r\n');
      const length = /content-length:\s*(\d+)/i.exec(head ?? '');
      if (length && rest.join('\r\n\r\n').length >= Number(length[1])) {
        socket.destroy();
        finish();
      }
    });
    socket.on('close', finish);
    // The server may close right after its answer; what it sent is read on close.
    socket.on('error', () => undefined);
  });
}

/** What is wrong with an answer's error body, or [] when it is the documented one with this code. */
function shapeProblems(answer: RawAnswer, status: number, code: string): string[] {
  const problems: string[] = [];
  if (answer.status !== status) problems.push(`status ${answer.status}, not ${status}`);
  let body: { error?: Record<string, unknown> } & Record<string, unknown>;
  try {
    body = JSON.parse(answer.body);
  } catch {
    return [...problems, `body is not JSON: ${answer.body.slice(0, 120)}`];
  }
  if (Object.keys(body).join() !== 'error') problems.push(`top-level keys ${Object.keys(body).join(', ')}`);
  const error = body.error ?? {};
  if (error.code !== code) problems.push(`code ${String(error.code)}, not ${code}`);
  if (typeof error.message !== 'string' || !error.message) problems.push('no message');
  if (typeof error.request_id !== 'string' || !error.request_id) problems.push('no request_id');
  else if (answer.headers['x-request-id'] !== error.request_id) problems.push('request_id is not the x-request-id header');
  if (!/^application\/json/.test(answer.headers['content-type'] ?? '')) problems.push(`content-type ${answer.headers['content-type']}`);
  return problems;
}

function post(path: string, headers: string[], body: string | Buffer): Buffer {
  const head = [`POST ${path} HTTP/1.1`, 'Host: localhost', 'Connection: close', ...headers, `Content-Length: ${Buffer.byteLength(body)}`];
  return Buffer.concat([Buffer.from(`${head.join('\r\n')}\r\n\r\n`), Buffer.from(body)]);
}

describe("the framework's own refusals keep the one error shape", () => {
  it('malformed JSON is 400 bad_request', async () => {
    const answer = await raw(post('/api/v1/onboard', ['Content-Type: application/json'], '{"name": '));
    expect(shapeProblems(answer, 400, 'bad_request')).toEqual([]);
  });

  it('a body over the limit is 413 payload_too_large', async () => {
    const answer = await raw(
      post('/api/v1/onboard', ['Content-Type: application/json'], JSON.stringify({ name: 'x'.repeat(BODY_LIMIT * 2) })),
    );
    expect(shapeProblems(answer, 413, 'payload_too_large')).toEqual([]);
  });

  it('an unsupported content-type is 415 unsupported_media_type', async () => {
    const answer = await raw(post('/api/v1/onboard', ['Content-Type: application/xml'], '<name>x</name>'));
    expect(shapeProblems(answer, 415, 'unsupported_media_type')).toEqual([]);
  });

  it('an unsupported content-encoding is 415 unsupported_media_type, not a JSON parse error', async () => {
    const answer = await raw(
      post('/api/v1/onboard', ['Content-Type: application/json', 'Content-Encoding: br'], Buffer.from([0x1b, 0x03, 0x00, 0xf8])),
    );
    expect(shapeProblems(answer, 415, 'unsupported_media_type')).toEqual([]);
  });

  it('headers larger than Node accepts are 431 headers_too_large', async () => {
    const answer = await raw(`GET /api/v1 HTTP/1.1\r\nHost: localhost\r\nX-Padding: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(shapeProblems(answer, 431, 'headers_too_large')).toEqual([]);
  });

  it('a request that does not arrive in time is 408 request_timeout', async () => {
    const answer = await raw(
      'POST /api/v1/onboard HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"name": "',
    );
    expect(shapeProblems(answer, 408, 'request_timeout')).toEqual([]);
  });

  it('a request line Node cannot parse (a space in the URL) is 400 bad_request', async () => {
    const answer = await raw('GET /api/v1/a b HTTP/1.1\r\nHost: localhost\r\n\r\n');
    expect(shapeProblems(answer, 400, 'bad_request')).toEqual([]);
  });

  it('a header Node cannot parse is 400 bad_request', async () => {
    const answer = await raw('GET /api/v1 HTTP/1.1\r\nHost: localhost\r\nBad Header: x\r\n\r\n');
    expect(shapeProblems(answer, 400, 'bad_request')).toEqual([]);
  });

  it('a malformed percent-encoding in the path is 400 bad_request', async () => {
    const answer = await raw('GET /api/v1/orgs/%zz/items HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
    expect(shapeProblems(answer, 400, 'bad_request')).toEqual([]);
  });
});

describe('a credential is sent once', () => {
  const get = (path: string, headers: string[]) =>
    raw([`GET ${path} HTTP/1.1`, 'Host: localhost', 'Connection: close', ...headers, '', ''].join('\r\n'));

  it('two Authorization headers are 400 duplicate_header, even when the first is a good key', async () => {
    const answer = await get('/api/v1/me', [`Authorization: Bearer ${owner.key}`, 'Authorization: Bearer ctk_someone_else']);
    expect(shapeProblems(answer, 400, 'duplicate_header')).toEqual([]);
    expect(JSON.parse(answer.body).error.details).toEqual({ header: 'authorization' });
    // One of them alone is as before.
    expect((await get('/api/v1/me', [`Authorization: Bearer ${owner.key}`])).status).toBe(200);
  });

  it('two Authorization headers are refused on a payment-gate key route too', async () => {
    const answer = await get('/api/v1/402/resources', ['Authorization: Bearer pg_one', 'authorization: Bearer pg_two']);
    expect(shapeProblems(answer, 400, 'duplicate_header')).toEqual([]);
  });

  it('two x-commerce-key headers are 400 duplicate_header, not joined into one', async () => {
    const answer = await get(`/api/v1/commerce/${owner.handle}/catalog`, ['X-Commerce-Key: pk_one', 'x-commerce-key: pk_two']);
    expect(shapeProblems(answer, 400, 'duplicate_header')).toEqual([]);
    expect(JSON.parse(answer.body).error.details).toEqual({ header: 'x-commerce-key' });
  });
});

describe('unknown query parameters', () => {
  /** The rule's one exception: the paymail routes answer paymail clients by the paymail rules, not this API's. */
  const exempt = (path: string) => path.startsWith('/api/v1/bsvalias/') || path === '/.well-known/bsvalias';

  it('are refused 422 naming them on every built catalog route, before credentials are asked for', async () => {
    // Built routes are those the document does not describe as answering 501 (not built yet).
    const document = (await gateway.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json() as {
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
    };
    const built = new Set(
      Object.entries(document.paths).flatMap(([path, operations]) =>
        Object.entries(operations)
          .filter(([, operation]) => !('501' in operation.responses))
          .map(([method]) => `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`),
      ),
    );
    const checked: string[] = [];
    const wrong: string[] = [];
    for (const endpoint of ENDPOINTS) {
      const openApiPath = endpoint.path.replace(/\*(\w+)$/, ':$1');
      if (!built.has(`${endpoint.method} ${openApiPath}`) || exempt(endpoint.path)) continue;
      checked.push(`${endpoint.method} ${endpoint.path}`);
      const url = `${concreteUrl(endpoint.path, owner.handle)}?org=${owner.handle}&colour_scheme=dark`;
      const response = await gateway.app.inject({ method: endpoint.method, url });
      const error = response.json().error ?? {};
      const named = (error.details?.issues ?? []).map((issue: { field: string }) => issue.field);
      if (
        response.statusCode !== 422 ||
        error.code !== 'validation_failed' ||
        !named.includes('colour_scheme') ||
        !String(error.message).includes('colour_scheme')
      )
        wrong.push(`${endpoint.method} ${endpoint.path}: ${response.statusCode} ${response.body.slice(0, 120)}`);
    }
    expect(checked.length).toBeGreaterThan(100);
    expect(wrong).toEqual([]);
  });

  it('known ones still work (a list page size, a webhook organisation)', async () => {
    const members = await gateway.app.inject({
      method: 'GET',
      url: `/api/v1/orgs/${owner.handle}/members?limit=5`,
      headers: { authorization: `Bearer ${owner.key}` },
    });
    expect(members.statusCode).toBe(200);
  });

  it('are not refused on the paymail routes, whose clients follow the paymail rules', async () => {
    const response = await gateway.app.inject({ method: 'GET', url: '/.well-known/bsvalias?colour_scheme=dark' });
    expect(response.statusCode).toBe(200);
  });
});
