import { AppError, type ErrorCode } from '@ctk/shared';

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Plain http only to this machine, or anywhere with --insecure-http (CTK_WALLET_INSECURE_HTTP=1). */
export function checkUrl(url: string, insecureHttp: boolean, what: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new AppError('bad_request', `The ${what} URL is not a URL: ${url}`);
  }
  if (parsed.protocol === 'https:') return parsed;
  if (parsed.protocol === 'http:' && (insecureHttp || LOCAL_HOSTS.has(parsed.hostname))) return parsed;
  throw new AppError('bad_request', `The ${what} URL must use https (plain http only to localhost, or with --insecure-http): ${url}`);
}

/** The scheme a domain is reached with: http for this machine or with --insecure-http, else https. */
export function baseUrlOfDomain(domain: string, insecureHttp: boolean): string {
  const host = domain.replace(/:\d+$/, '');
  return `${insecureHttp || LOCAL_HOSTS.has(host) ? 'http' : 'https'}://${domain}`;
}

export type JsonAnswer = { status: number; body: unknown };

/** A JSON request with a timeout and no redirects; a network failure is one clear `unavailable`. */
export async function requestJson(
  url: URL,
  what: string,
  init: { method?: string; body?: unknown; accept?: string } = {},
): Promise<JsonAnswer> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: init.method ?? 'GET',
      headers: { accept: init.accept ?? 'application/json', ...(init.body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      redirect: 'error',
      signal: AbortSignal.timeout(15_000),
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name;
    throw new AppError('unavailable', `The ${what} at ${url.host} is unreachable (${cause}).`);
  }
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    // Not JSON: callers that need JSON say so.
  }
  return { status: response.status, body };
}

/** The answer's body when it is a 2xx JSON object, else an AppError naming what answered what. */
export function expectJson(answer: JsonAnswer, what: string, code: ErrorCode = 'failed_precondition'): Record<string, unknown> {
  if (answer.status >= 200 && answer.status < 300 && typeof answer.body === 'object' && answer.body !== null)
    return answer.body as Record<string, unknown>;
  const message = typeof answer.body === 'object' && answer.body !== null ? messageOf(answer.body as Record<string, unknown>) : undefined;
  throw new AppError(code, `The ${what} answered ${answer.status}${message ? `: ${message}` : answer.status < 300 ? ', not JSON' : ''}.`);
}

function messageOf(body: Record<string, unknown>): string | undefined {
  const error = body.error;
  if (typeof error === 'string') return error;
  if (typeof error === 'object' && error !== null && typeof (error as { message?: unknown }).message === 'string')
    return (error as { message: string }).message;
  return typeof body.message === 'string' ? body.message : undefined;
}
