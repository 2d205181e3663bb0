import type { ChainPassthroughResponse } from '@ctk/proto/ctk/p2p/v1/p2p';
import { AppError } from '@ctk/shared';

type Upstream = { url: string; apiKey: string | undefined; timeoutMs: number; maxBytes: number };

const PASSED_TYPES = /^(application\/json|text\/plain)\b/i;

/** One GET to the chain API: its API key added here, no redirects followed, the answer read up to maxBytes within the time limit. */
export async function readUpstream(upstream: Upstream): Promise<ChainPassthroughResponse> {
  const host = new URL(upstream.url).host;
  const unavailable = (reason: string, details: Record<string, unknown> = {}) =>
    new AppError('chain_unavailable', `The chain API at ${host} ${reason}.`, { service: 'chain API', host, ...details });
  let response: Response;
  const signal = AbortSignal.timeout(upstream.timeoutMs);
  try {
    response = await fetch(upstream.url, {
      headers: { accept: 'application/json', ...(upstream.apiKey ? { authorization: upstream.apiKey } : {}) },
      redirect: 'manual',
      signal,
    });
  } catch {
    throw unavailable(signal.aborted ? `gave no answer within ${upstream.timeoutMs} ms` : 'is unreachable');
  }
  if (response.status >= 300 && response.status < 400) {
    await response.body?.cancel();
    throw unavailable(`answered with a redirect (${response.status}), which is not followed`, { status: response.status });
  }
  if (response.status >= 500 || response.status === 429) {
    await response.body?.cancel();
    throw unavailable(`answered ${response.status}`, { status: response.status });
  }
  const body = await readAtMost(response, upstream.maxBytes, signal).catch((error: unknown) => {
    if (AppError.is(error)) throw error;
    throw unavailable(signal.aborted ? `gave no whole answer within ${upstream.timeoutMs} ms` : 'broke off its answer');
  });
  if (body === undefined)
    throw unavailable(`answered more than ${upstream.maxBytes} bytes, more than this passthrough passes on`, {
      max_bytes: upstream.maxBytes,
    });
  const type = response.headers.get('content-type') ?? '';
  return { status: response.status, contentType: PASSED_TYPES.test(type) ? type : 'application/octet-stream', body };
}

/** The body, or undefined as soon as it passes maxBytes (the rest is not read). */
async function readAtMost(response: Response, maxBytes: number, signal: AbortSignal): Promise<Buffer | undefined> {
  if (!response.body) return Buffer.alloc(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    if (signal.aborted) throw new Error('timed out');
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks.map((chunk) => Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)));
}
