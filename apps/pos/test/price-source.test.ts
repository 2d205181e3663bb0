import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rateFromPrice, satoshisFor } from '../src/rates/exchange-rate.js';
import { fixedRates } from '../src/rates/fixed-rates.js';
import { httpRates } from '../src/rates/http-rates.js';

/** A stand-in for an exchange-rate API: answers what `reply` says, counting requests per path. */
let server: Server;
let base: string;
let reply: (path: string) => { status: number; body: string } = () => ({ status: 500, body: '' });
const requests: string[] = [];
beforeAll(async () => {
  server = createServer((request, response) => {
    requests.push(request.url ?? '');
    const { status, body } = reply(request.url ?? '');
    response.writeHead(status, { 'content-type': 'application/json' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('satoshi rates', () => {
  it('turns a BSV price into satoshis per minor unit exactly, and an amount into satoshis rounded up', () => {
    // 1 BSV = 50 USD: 1 cent = 10^8 / 5000 = 20000 satoshis.
    expect(rateFromPrice('50', 'USD')).toBe('20000');
    // 51.23 USD: 10^8 / 5123 = 19519.812609798...: 8 decimals, half up, trailing zero dropped.
    expect(rateFromPrice('51.23', 'USD')).toBe('19519.8126098');
    // JPY has no minor digits: 1 yen at 7500 JPY per BSV = 13333.33333333 satoshis.
    expect(rateFromPrice('7500', 'JPY')).toBe('13333.33333333');
    expect(satoshisFor(1861n, '19519.8126098')).toBe(36_326_372n); // 36326371.27 rounded up
    expect(satoshisFor(450n, '100')).toBe(45_000n);
  });

  it('fixed: the configured rates, and a clear refusal for a currency without one', async () => {
    const rates = fixedRates('USD=20000, EUR=18500.5');
    expect(await rates.rateFor('EUR')).toMatchObject({ rate: '18500.5', source: 'fixed' });
    await expect(rates.rateFor('GBP')).rejects.toMatchObject({ code: 'validation_failed', details: { field: 'currency' } });
    expect(() => fixedRates('usd=1')).toThrow(/POS_FIXED_RATES/);
    expect(() => fixedRates('USD=0.1.2')).toThrow(/decimal/);
  });

  it('http: reads CoinGecko and WhatsOnChain answers, caches, serves a stale rate within the age limit, then refuses 503', async () => {
    let clock = Date.UTC(2026, 10, 23, 16, 0, 0);
    let price = '51.23';
    reply = (path) =>
      path.startsWith('/coingecko')
        ? { status: 200, body: `{"bitcoin-cash-sv":{"usd":${price},"eur":47.1}}` }
        : { status: 200, body: `{"currency":"USD","rate":${price},"time":1763913600}` };
    const coingecko = httpRates({ url: `${base}/coingecko?vs={currency}`, cacheSeconds: 60, maxAgeSeconds: 300, now: () => clock });
    const first = await coingecko.rateFor('USD');
    expect(first).toMatchObject({ rate: '19519.8126098', source: new URL(base).host });
    expect(first.at.getTime()).toBe(clock);
    expect((await coingecko.rateFor('EUR')).rate).toBe(rateFromPrice('47.1', 'EUR'));
    expect(requests.filter((path) => path === '/coingecko?vs=usd')).toHaveLength(1);

    // Within the cache: no request; 10 concurrent misses after it: one request.
    price = '40';
    await coingecko.rateFor('USD');
    expect(requests.filter((path) => path === '/coingecko?vs=usd')).toHaveLength(1);
    clock += 61_000;
    const rates = await Promise.all(Array.from({ length: 10 }, () => coingecko.rateFor('USD')));
    expect(new Set(rates.map((rate) => rate.rate))).toEqual(new Set(['25000']));
    expect(requests.filter((path) => path === '/coingecko?vs=usd')).toHaveLength(2);

    // The API fails: the last rate serves until it is older than the limit, then orders are refused.
    reply = () => ({ status: 502, body: 'bad gateway' });
    clock += 120_000;
    expect((await coingecko.rateFor('USD')).rate).toBe('25000');
    clock += 200_000;
    await expect(coingecko.rateFor('USD')).rejects.toMatchObject({ code: 'unavailable' });

    price = '50';
    reply = () => ({ status: 200, body: `{"currency":"USD","rate":${price},"time":1763913600}` });
    const whatsonchain = httpRates({ url: `${base}/woc/exchangerate`, cacheSeconds: 60, maxAgeSeconds: 300, now: () => clock });
    expect((await whatsonchain.rateFor('USD')).rate).toBe('20000');
    // An answer naming another currency, or a price in exponent form, is not a rate.
    reply = () => ({ status: 200, body: '{"bitcoin-cash-sv":{"usd":5e1}}' });
    await expect(httpRates({ url: `${base}/x`, cacheSeconds: 1, maxAgeSeconds: 1 }).rateFor('USD')).rejects.toMatchObject({
      code: 'unavailable',
    });
    await expect(httpRates({ url: `${base}/x`, cacheSeconds: 1, maxAgeSeconds: 1 }).rateFor('GBP')).rejects.toMatchObject({
      code: 'unavailable',
    });
  });
});
