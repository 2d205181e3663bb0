// Calls to the gateway's API from the pages. The API key lives in sessionStorage only (gone when the tab
// closes, never in a cookie or localStorage) and is sent as a Bearer token.

const KEY = 'ctk.apiKey';

export const session = {
  key: () => sessionStorage.getItem(KEY),
  signIn: (key) => sessionStorage.setItem(KEY, key),
  signOut: () => sessionStorage.removeItem(KEY),
};

/** An answer other than 2xx: the API's error code and message, ready to show, and its details (a card's balance). */
export class ApiError extends Error {
  constructor(status, code, message, details = {}) {
    super(message);
    this.status = status;
    this.code = code;
    this.details = details;
  }
}

/**
 * JSON in, JSON out; `auth: false` for the public order reads; `idempotencyKey` makes a retried POST answer
 * what the first one did. Throws ApiError with the API's message.
 */
export async function api(method, path, { body, auth = true, idempotencyKey } = {}) {
  const headers = { accept: 'application/json' };
  if (idempotencyKey) headers['idempotency-key'] = idempotencyKey;
  if (auth) {
    const key = session.key();
    if (!key) throw new ApiError(401, 'unauthenticated', 'Sign in with an API key first.');
    headers.authorization = `Bearer ${key}`;
  }
  if (body !== undefined) headers['content-type'] = 'application/json';
  let response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), cache: 'no-store' });
  } catch {
    throw new ApiError(0, 'network', 'The service did not answer: check the connection and try again.');
  }
  const text = await response.text();
  let json = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  if (!response.ok) {
    const error = json?.error;
    throw new ApiError(
      response.status,
      error?.code ?? 'http_' + response.status,
      error?.message ?? `The service answered ${response.status}.`,
      error?.details ?? {},
    );
  }
  return json;
}

/** Every page of a list route (`{data, next_cursor}`), up to `max` rows. */
export async function listAll(path, max = 500) {
  const rows = [];
  let cursor = null;
  do {
    const separator = path.includes('?') ? '&' : '?';
    const page = await api('GET', `${path}${separator}limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    rows.push(...page.data);
    cursor = page.next_cursor;
  } while (cursor && rows.length < max);
  return rows;
}

/** The order of an answer: the order itself, or `{order}`. */
export const orderOf = (answer) => answer?.order ?? answer;
