import { AppError } from '@ctk/shared';
import { rateFromPrice, type ExchangeRate, type PriceSource } from './exchange-rate.js';

export type HttpRatesOptions = {
  /** With `{currency}` where the lower-case code goes. */
  url: string;
  cacheSeconds: number;
  maxAgeSeconds: number;
  timeoutMs?: number;
  now?: () => number;
};

/**
 * A real exchange-rate API as a price source. A rate is fetched at most once per `cacheSeconds` per
 * currency (concurrent orders share one request); when the API fails the last rate is used until it is
 * `maxAgeSeconds` old, after which orders are refused 503 rather than priced on a stale rate.
 */
export function httpRates(options: HttpRatesOptions): PriceSource {
  const now = options.now ?? Date.now;
  const source = new URL(options.url.replace('{currency}', 'usd')).host;
  const cache = new Map<string, { rate: ExchangeRate; fetchedAt: number }>();
  const inFlight = new Map<string, Promise<ExchangeRate>>();

  async function fetchRate(currency: string): Promise<ExchangeRate> {
    const url = options.url.replace('{currency}', currency.toLowerCase());
    const response = await fetch(url, { signal: AbortSignal.timeout(options.timeoutMs ?? 5_000), headers: { accept: 'application/json' } });
    if (!response.ok) throw new Error(`${source} answered HTTP ${response.status}`);
    const price = priceIn(await response.text(), currency);
    const rate = { rate: rateFromPrice(price, currency), source, at: new Date(now()) };
    cache.set(currency, { rate, fetchedAt: now() });
    return rate;
  }

  return {
    async rateFor(currency) {
      const cached = cache.get(currency);
      if (cached && now() - cached.fetchedAt < options.cacheSeconds * 1000) return cached.rate;
      let pending = inFlight.get(currency);
      if (!pending) {
        pending = fetchRate(currency).finally(() => inFlight.delete(currency));
        inFlight.set(currency, pending);
      }
      try {
        return await pending;
      } catch (error) {
        if (cached && now() - cached.rate.at.getTime() <= options.maxAgeSeconds * 1000) return cached.rate;
        throw new AppError(
          'unavailable',
          `No current satoshi rate for ${currency}: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    },
  };
}

/**
 * The BSV price in the currency from the API's JSON, as the decimal text the API wrote (never through a
 * float): CoinGecko's `{"bitcoin-cash-sv":{"usd":51.23}}` or WhatsOnChain's `{"currency":"USD","rate":51.23}`.
 */
function priceIn(body: string, currency: string): string {
  const code = currency.toLowerCase();
  const patterns = [
    new RegExp(`"${code}"\\s*:\\s*(\\d+(?:\\.\\d+)?)(?![\\d.eE])`),
    new RegExp(`"currency"\\s*:\\s*"${currency}"[^}]*"rate"\\s*:\\s*(\\d+(?:\\.\\d+)?)(?![\\d.eE])`, 'i'),
  ];
  for (const pattern of patterns) {
    const match = pattern.exec(body);
    if (match?.[1]) return match[1];
  }
  throw new Error(`the answer names no ${currency} price`);
}
