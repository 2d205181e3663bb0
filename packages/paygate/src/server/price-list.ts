import { AppError, comparablePath, coversMethod, pathMatcher, specificity } from '@ctk/shared';
import { z } from 'zod';

/** Which of the account's priced resources prices a request, decided here as the gate decides it. */
export type PriceList = {
  /** The id of the resource that prices `method` and `path` (as received, no query), or undefined when none does. */
  pricing(method: string, path: string): string | undefined;
};

type Priced = { id: string; method: string; covers: (comparable: string) => boolean };

const pageSchema = z.object({
  data: z.array(z.object({ id: z.string(), method: z.string(), path: z.string(), created_at: z.string() })),
  next_cursor: z.string().nullable(),
});

/** An account has at most 200 live priced resources (decision 0021): a few pages of 100. */
const MAX_PAGES = 5;

/**
 * The account's priced resources, ordered as the gate chooses among them (`pricingResource` of
 * @ctk/shared: the most specific, then the newest), each path folded once, so that a request costs one
 * fold of its own path and a walk that stops at the first match.
 */
export function priceList(resources: Array<{ id: string; method: string; path: string; createdAt: Date }>): PriceList {
  const ordered: Priced[] = [...resources]
    .sort((a, b) => specificity(b) - specificity(a) || b.createdAt.getTime() - a.createdAt.getTime())
    .map((resource) => ({ id: resource.id, method: resource.method, covers: pathMatcher(resource.path) }));
  return {
    pricing(method, path) {
      const comparable = comparablePath(path);
      return ordered.find((resource) => coversMethod(resource.method, method) && resource.covers(comparable))?.id;
    },
  };
}

/**
 * Reads the key's priced resources from the gate (`GET /api/v1/402/resources`, every page). A credential
 * names the resource it was bought for; a request a more specific resource prices (`/weather/premium`
 * beside `/weather/*`) is not paid by it, and only the list tells which.
 */
export async function fetchPriceList(base: string, key: string, timeoutMs: number): Promise<PriceList> {
  const resources: Array<{ id: string; method: string; path: string; createdAt: Date }> = [];
  let cursor: string | null = null;
  for (let page = 0; page < MAX_PAGES; page++) {
    const url = `${base}/api/v1/402/resources?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const parsed = pageSchema.safeParse(await fetchJson(url, key, timeoutMs));
    if (!parsed.success) throw new AppError('unavailable', `The payment gate's priced resources at ${base} are not a list of them.`);
    for (const row of parsed.data.data)
      resources.push({ id: row.id, method: row.method, path: row.path, createdAt: new Date(row.created_at) });
    cursor = parsed.data.next_cursor;
    if (!cursor) return priceList(resources);
  }
  throw new AppError('unavailable', `The payment gate lists more than ${MAX_PAGES * 100} priced resources.`);
}

async function fetchJson(url: string, key: string, timeoutMs: number): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, {
      headers: { authorization: `Bearer ${key}`, accept: 'application/json' },
      redirect: 'error',
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name;
    throw new AppError('unavailable', `The payment gate's priced resources at ${new URL(url).host} are unreachable (${cause}).`);
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new AppError('unavailable', `The payment gate answered ${response.status} to the list of priced resources.`);
  }
  try {
    return await response.json();
  } catch {
    throw new AppError('unavailable', "The payment gate's list of priced resources is not JSON.");
  }
}
