import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exampleOf, messageDesc } from '../src/contract/contract-registry.js';
import { MAX_ANALYZE_IMAGE_BYTES } from '../src/items/analyze-input.js';

/** The documented request: a pasted list of a cafe's menu (pos.examples.json). */
const analyzeItemsExample = exampleOf(messageDesc('ctk.pos.v1.AnalyzeItemsRequest')) as object;
import { bearer, onboard, startTestGateway, type Gateway } from './harness.js';
import { startPosStack } from './pos-harness.js';
import { expectError, SERVICES_DOWN, uniqueName } from './support.js';

const URL_PATH = '/api/v1/items/analyze';
const menuPhoto = (name: string) => readFile(new URL(`../../pos/test/fixtures/${name}`, import.meta.url));
type Draft = { name: string; price_cents: number; currency: string; category: string; notes: string[] };

describe('item drafts through the gateway and the pos service over gRPC', () => {
  let stack: Awaited<ReturnType<typeof startPosStack>>;
  let gateway: Gateway;
  beforeAll(async () => {
    stack = await startPosStack();
    gateway = stack.gateway;
  });
  afterAll(async () => {
    await stack?.close();
  });

  // Each call from its own address: the route's per-address limit (10 a minute) is tested below.
  let calls = 0;
  const analyze = (payload: object | string, headers: Record<string, string> = {}) =>
    gateway.app.inject({
      method: 'POST',
      url: URL_PATH,
      remoteAddress: `198.51.100.${++calls}`,
      headers: { 'content-type': 'application/json', ...headers },
      payload,
    });
  const summary = (drafts: Draft[]) => drafts.map((d) => [d.name, d.price_cents, d.currency, d.category]);

  it('answers an anonymous pasted list with the drafts the document shows for it', async () => {
    const answer = await analyze(analyzeItemsExample);
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual(exampleOf(messageDesc('ctk.pos.v1.ItemDrafts')));
    expect(answer.headers['cache-control']).toBe('no-store');
  });

  it('reads a CSV for a signed-in merchant, in the currency asked for', async () => {
    const owner = await onboard(gateway, uniqueName('Blue Bottle'));
    const csv = 'name,price,category\nFlat white,"4,50",Coffee\nEspresso,3,Coffee\n';
    const answer = await analyze({ csv, currency: 'EUR' }, bearer(owner.key));
    expect(answer.statusCode).toBe(200);
    expect(answer.json().source).toBe('csv');
    expect(summary(answer.json().drafts)).toEqual([
      ['Flat white', 450, 'EUR', 'Coffee'],
      ['Espresso', 300, 'EUR', 'Coffee'],
    ]);
  });

  it.each([
    ['menu.jpg', (bytes: Buffer) => bytes.toString('base64')],
    ['menu.png', (bytes: Buffer) => `data:image/png;base64,${bytes.toString('base64')}`],
  ])('reads the printed menu photographed in %s', async (name, encode) => {
    const answer = await analyze({ image: encode(await menuPhoto(name)) });
    expect(answer.statusCode).toBe(200);
    expect(answer.json().source).toBe('image');
    expect(summary(answer.json().drafts)).toEqual([
      ['Espresso', 300, 'USD', 'Coffee'],
      ['Flat white', 450, 'USD', 'Coffee'],
      ['Cappuccino', 475, 'USD', 'Coffee'],
      ['Croissant', 325, 'USD', 'Pastries'],
      ['Banana bread', 395, 'USD', 'Pastries'],
    ]);
  });

  it.each([
    ['a NUL character', { text: 'Flat white\u0000 4.50' }, 422, 'validation_failed', 'text'],
    ['nothing', {}, 422, 'validation_failed', 'all are empty'],
    ['an empty text', { text: '' }, 422, 'validation_failed', 'all are empty'],
    ['two inputs at once', { text: 'Latte 5', csv: 'name,price\nLatte,5' }, 422, 'validation_failed', 'only one of text, csv or image'],
    [
      'a text beside an image',
      { text: 'Latte 5', image: Buffer.alloc(3_000_000, 0xff).toString('base64') },
      422,
      'validation_failed',
      'only one',
    ],
    ['an unknown field', { text: 'Latte 5', url: 'https://example.com/menu.jpg' }, 422, 'validation_failed', 'url'],
    ['an image that is not base64', { image: 'not base64!' }, 422, 'validation_failed', 'base64'],
    [
      'a GIF',
      { image: Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00', 'latin1').toString('base64') },
      415,
      'unsupported_media_type',
      'not GIF',
    ],
    [
      'SVG declared a JPEG by its data URL',
      { image: `data:image/jpeg;base64,${Buffer.from('<svg/>').toString('base64')}` },
      415,
      'unsupported_media_type',
      'PNG or JPEG',
    ],
    [
      'an image too large',
      { image: Buffer.alloc(MAX_ANALYZE_IMAGE_BYTES + 1, 0xff).toString('base64') },
      413,
      'payload_too_large',
      'image',
    ],
    ['a text too long', { text: 'Latte 5\n'.repeat(12_501) }, 413, 'payload_too_large', 'text'],
    ['a currency that is none', { text: 'Latte 5', currency: 'XBT' }, 422, 'validation_failed', 'currency'],
    ['a currency past its length', { text: 'Latte 5', currency: 'U'.repeat(100_000) }, 422, 'validation_failed', 'currency'],
  ])('refuses %s', async (_what, body, status, code, words) => {
    const answer = await analyze(body);
    expectError(answer, status, code);
    expect(answer.json().error.message).toContain(words);
  });

  it('refuses a raw image body and a JSON body past the limit of a phone photo', async () => {
    const raw = await gateway.app.inject({
      method: 'POST',
      url: URL_PATH,
      remoteAddress: '198.51.100.250',
      headers: { 'content-type': 'image/jpeg' },
      payload: await menuPhoto('menu.jpg'),
    });
    expectError(raw, 415, 'unsupported_media_type');
    expectError(await analyze(JSON.stringify({ image: 'A'.repeat(6 * 1024 * 1024) })), 413, 'payload_too_large');
  });
});

describe('item drafts for anonymous callers', () => {
  it('are limited per client address, before pos is called', async () => {
    const gateway = await startTestGateway({ ...SERVICES_DOWN, CTK_ANALYZE_RATE_LIMIT_PER_MINUTE: '2' });
    try {
      const call = (remoteAddress: string) =>
        gateway.app.inject({ method: 'POST', url: URL_PATH, remoteAddress, payload: { text: 'Latte 5' } });
      // pos is down: calls within the limit reach it and answer 503.
      expect((await call('203.0.113.7')).statusCode).toBe(503);
      expect((await call('203.0.113.7')).statusCode).toBe(503);
      expectError(await call('203.0.113.7'), 429, 'rate_limited');
      expect((await call('203.0.113.8')).statusCode).toBe(503);
    } finally {
      await gateway.close();
    }
  });
});
