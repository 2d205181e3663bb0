import { session } from './session.js';

/** What the API refused, as its error body says it (`{"error": {"code", "message", "details"}}`). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}

type Call = {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  key?: string | null;
  headers?: Record<string, string>;
  /** The browser cache's part: 'no-store' for an answer the server lets caches keep (a shop's sign) read fresh. */
  cache?: RequestCache;
};

/**
 * One call to the gateway this page came from, with the signed-in key unless another is given (null: none),
 * and any other headers (a menu's If-Match).
 * Answers the JSON, or throws ApiError with the API's own code and message.
 */
export async function api<T>(path: string, { method = 'GET', body, key, headers: extra, cache }: Call = {}): Promise<T> {
  const bearer = key === undefined ? session.key() : key;
  const headers: Record<string, string> = { accept: 'application/json', ...extra };
  if (bearer) headers.authorization = `Bearer ${bearer}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(path, { method, headers, cache, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    throw new ApiError(0, 'network', 'The service could not be reached. Check the connection and try again.');
  }
  const text = await response.text();
  const json = text ? (JSON.parse(text) as unknown) : undefined;
  if (response.ok) return json as T;
  const error = (json as { error?: { code: string; message: string; details?: Record<string, unknown> } } | undefined)?.error;
  if (response.status === 401 && bearer === session.key()) session.end();
  throw new ApiError(response.status, error?.code ?? 'error', error?.message ?? `The service answered ${response.status}.`, error?.details);
}

/** A page of a list, as every list route answers it. */
export type Page<T> = { data: T[]; next_cursor: string | null };

/** A text the gateway answers (an SVG badge), read fresh (no cached copy); throws ApiError when refused. */
export async function apiText(path: string): Promise<string> {
  let response: Response;
  try {
    response = await fetch(path, { cache: 'no-store' });
  } catch {
    throw new ApiError(0, 'network', 'The service could not be reached. Check the connection and try again.');
  }
  if (!response.ok) throw new ApiError(response.status, 'error', `The service answered ${response.status}.`);
  return response.text();
}
