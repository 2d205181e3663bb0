import { AppError } from '@ctk/shared';

export type HttpSettings = {
  /** Per attempt, including reading the body. */
  timeoutMs: number;
  /** Further attempts after the first, on network errors, timeouts, 429 and 5xx. */
  retries: number;
  /** The first retry waits about this long; each next one twice as long, with jitter. */
  retryBaseMs: number;
  fetch: typeof fetch;
};

export type HttpResponse = { status: number; body: string };

const MAX_DELAY_MS = 5_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * HTTP to one chain service (ARC or a WhatsOnChain-compatible API) with a timeout per attempt, retries with
 * exponential backoff and jitter, and no redirects. What cannot be reached, or keeps failing, is an AppError
 * `chain_unavailable` naming the service and its host. Headers (the API key) never appear in errors.
 */
export class ChainHttp {
  private readonly host: string;

  constructor(
    readonly service: string,
    readonly baseUrl: string,
    private readonly settings: HttpSettings,
    private readonly headers: Record<string, string>,
  ) {
    this.host = new URL(baseUrl).host;
  }

  get(path: string): Promise<HttpResponse> {
    return this.send(path, { method: 'GET', headers: { accept: 'application/json', ...this.headers } });
  }

  /** Also retried: broadcasting the same transaction twice is idempotent. */
  post(path: string, body: Uint8Array, contentType: string): Promise<HttpResponse> {
    return this.send(path, { method: 'POST', body, headers: { accept: 'application/json', 'content-type': contentType, ...this.headers } });
  }

  unavailable(reason: string, details: Record<string, unknown> = {}): AppError {
    return new AppError('chain_unavailable', `${this.service} at ${this.host} ${reason}`, {
      service: this.service,
      host: this.host,
      ...details,
    });
  }

  private async send(path: string, init: RequestInit): Promise<HttpResponse> {
    const attempts = this.settings.retries + 1;
    let failure = '';
    for (let attempt = 1; attempt <= attempts; attempt++) {
      let retryAfterMs: number | undefined;
      try {
        const response = await this.settings.fetch(`${this.baseUrl}${path}`, {
          ...init,
          redirect: 'manual',
          signal: AbortSignal.timeout(this.settings.timeoutMs),
        });
        if (response.status >= 300 && response.status < 400) {
          await response.body?.cancel();
          throw this.unavailable(`answered with a redirect (${response.status}), which is not followed: check the URL`, {
            status: response.status,
          });
        }
        const body = await response.text();
        if (response.status !== 429 && response.status < 500) return { status: response.status, body };
        failure = `answered ${response.status}`;
        retryAfterMs = Math.min(MAX_DELAY_MS, Number(response.headers.get('retry-after')) * 1000) || undefined;
      } catch (error) {
        if (AppError.is(error)) throw error;
        failure = `is unreachable (${describe(error, this.settings.timeoutMs)})`;
      }
      if (attempt < attempts) await sleep(retryAfterMs ?? this.backoff(attempt));
    }
    throw this.unavailable(`${failure} after ${attempts} attempt${attempts === 1 ? '' : 's'}`, { attempts });
  }

  private backoff(attempt: number): number {
    const ceiling = Math.min(MAX_DELAY_MS, this.settings.retryBaseMs * 2 ** (attempt - 1));
    return Math.min(MAX_DELAY_MS, ceiling / 2 + Math.random() * (ceiling / 2));
  }
}

function describe(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) return `no answer within ${timeoutMs} ms`;
  const cause = error instanceof Error ? (error.cause as { code?: string; message?: string } | undefined) : undefined;
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
}

/** A JSON body, or `chain_unavailable` when the service answered something else. */
export function parseJson<T>(http: ChainHttp, response: HttpResponse): T {
  try {
    return JSON.parse(response.body) as T;
  } catch {
    throw http.unavailable(`answered ${response.status} with a body that is not JSON`, { status: response.status });
  }
}
