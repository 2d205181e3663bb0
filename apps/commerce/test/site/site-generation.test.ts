import { buyButtonElement, checkoutScriptTag } from '@ctk/shared';
import { describe, expect, it } from 'vitest';
import { generateSite, previewIndex } from '../../src/site/generate-site.js';
import { itemPaths, slugOf } from '../../src/site/item-paths.js';
import { jsonLdScript } from '../../src/site/json-ld.js';
import { decimalAmount, formatMoney } from '../../src/site/money.js';
import { cafeSource, item, jsonLdOf, LATTE_ID } from './site-fixture.js';

const text = (files: ReturnType<typeof generateSite>, path: string) => files.find((file) => file.path === path)!.body.toString();

describe('generating a site', () => {
  it('makes index.html, one page per item and one content-addressed stylesheet, sorted by path', () => {
    const files = generateSite(cafeSource());
    expect(files.map((file) => file.path)).toEqual([
      expect.stringMatching(/^assets\/site-[0-9a-f]{16}\.css$/),
      'index.html',
      'items/oat-milk-latte.html',
      'items/scone.html',
      'items/script-script-alert-1-script-friends.html',
    ]);
    expect(files.find((file) => file.path === 'index.html')?.contentType).toBe('text/html; charset=utf-8');
  });

  it('is a pure function of its source: the same source gives the same bytes', () => {
    const first = generateSite(cafeSource());
    const second = generateSite(cafeSource());
    expect(second.map((file) => file.body.toString())).toEqual(first.map((file) => file.body.toString()));
  });

  it('changing one item changes only its page and the index', () => {
    const before = generateSite(cafeSource());
    const source = cafeSource();
    source.catalog.items[0] = { ...source.catalog.items[0]!, priceMinor: 600n };
    const after = generateSite(source);
    const changed = after.filter((file, index) => !file.body.equals(before[index]!.body)).map((file) => file.path);
    expect(changed).toEqual(['index.html', 'items/oat-milk-latte.html']);
  });

  it('describes the shop as a schema.org LocalBusiness with its opening hours, special days from today on', () => {
    const [business] = jsonLdOf(text(generateSite(cafeSource()), 'index.html'));
    expect(business).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'LocalBusiness',
      name: 'Blue Bottle Cafe',
      description: 'Coffee roasted on Mission Street',
      geo: { '@type': 'GeoCoordinates', latitude: 37.7765, longitude: -122.4172 },
      currenciesAccepted: 'USD',
    });
    expect(business!.openingHoursSpecification).toEqual([
      { '@type': 'OpeningHoursSpecification', dayOfWeek: 'https://schema.org/Monday', opens: '07:00', closes: '17:00' },
      { '@type': 'OpeningHoursSpecification', dayOfWeek: 'https://schema.org/Saturday', opens: '08:00', closes: '23:59' },
      { '@type': 'OpeningHoursSpecification', dayOfWeek: 'https://schema.org/Sunday', opens: '22:00', closes: '02:00' },
      { '@type': 'OpeningHoursSpecification', validFrom: '2026-12-25', validThrough: '2026-12-25', opens: '00:00', closes: '00:00' },
    ]);
  });

  it('describes each item as a Product with its Offer: an exact decimal price, and out of stock when sold out', () => {
    const files = generateSite(cafeSource());
    expect(jsonLdOf(text(files, 'items/oat-milk-latte.html'))).toEqual([
      {
        '@context': 'https://schema.org',
        '@type': 'Product',
        name: 'Oat milk latte',
        description: 'Double shot, steamed oat milk',
        category: 'Coffee',
        offers: {
          '@type': 'Offer',
          price: '5.75',
          priceCurrency: 'USD',
          availability: 'https://schema.org/InStock',
          seller: { '@type': 'LocalBusiness', name: 'Blue Bottle Cafe' },
        },
      },
    ]);
    expect(jsonLdOf(text(files, 'items/scone.html'))[0]).toMatchObject({ offers: { availability: 'https://schema.org/OutOfStock' } });
  });

  it('escapes every text: an item named to close the script stays inside its JSON-LD and shows as text', () => {
    const page = text(generateSite(cafeSource()), 'items/script-script-alert-1-script-friends.html');
    // Two scripts only: checkout.js and the JSON-LD; the name never ends one.
    expect(page.match(/<script/g)).toHaveLength(2);
    expect(page.match(/<\/script>/g)).toHaveLength(2);
    expect(page).toContain('<h1>&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;friends&quot;</h1>');
    expect(jsonLdOf(page)[0]).toMatchObject({ name: '</script><script>alert(1)</script> & "friends"' });
    expect(jsonLdScript({ a: '</script>\u2028' })).toBe('<script type="application/ld+json">{"a":"\\u003c/script\\u003e\\u2028"}</script>');
    const index = text(generateSite(cafeSource()), 'index.html');
    expect(index).toContain('<p>Oat milk &lt;free&gt;.</p>');
    expect(index).not.toContain('<script>alert');
  });

  it('sells with the Buy button snippet of the Commerce API, and shows the open sign badge', () => {
    const files = generateSite(cafeSource());
    const latte = text(files, 'items/oat-milk-latte.html');
    const script = checkoutScriptTag({ src: 'https://pay.example.com/checkout/v1/checkout.js', integrity: 'sha384-abc+/=' });
    const button = buyButtonElement({ merchant: 'blue-bottle', item: LATTE_ID, commerceKey: 'ctk_pk_test', label: 'Buy now' });
    expect(latte).toContain(script);
    expect(latte).toContain(button);
    // Sold out: no button, no script.
    const scone = text(files, 'items/scone.html');
    expect(scone).toContain('Sold out');
    expect(scone).not.toContain('ctk-buy-button');
    expect(scone).not.toContain('checkout.js');
    const index = text(files, 'index.html');
    expect(index).toContain(button);
    expect(index).toContain('<img class="sign" src="https://pay.example.com/api/v1/shops/blue-bottle/sign?format=svg"');
    // The page lets only the gateway's origin in.
    expect(index).toContain('script-src https://pay.example.com; style-src &#39;self&#39;');
  });

  it('without a commerce key: no Buy buttons, no script', () => {
    const index = text(generateSite(cafeSource({ buy: undefined })), 'index.html');
    expect(index).not.toContain('ctk-buy-button');
    expect(index).not.toContain('checkout.js');
  });

  it('shows the sections in the order the settings give, and leaves out the others', () => {
    const source = cafeSource();
    source.look = { ...source.look, sections: ['hours', 'menu'] };
    const index = text(generateSite(source), 'index.html');
    expect(index.indexOf('id="hours"')).toBeLessThan(index.indexOf('id="menu"'));
    for (const left of ['id="about"', 'id="location"', 'id="contact"', 'class="hero"']) expect(index).not.toContain(left);
    // Without the hero, the title is still the page's heading.
    expect(index).toContain('<header class="site-header"><div class="wrap"><h1>Blue Bottle Cafe</h1>');
    // Without the menu, no item pages.
    source.look = { ...source.look, sections: ['about'] };
    expect(generateSite(source).map((file) => file.path)).toEqual([expect.stringMatching(/^assets\//), 'index.html']);
  });

  it('a preview has its stylesheet inline and allows it in its policy', () => {
    const preview = previewIndex(cafeSource());
    expect(preview).toContain('<style>\n:root {');
    expect(preview).toContain('style-src &#39;unsafe-inline&#39;');
    expect(preview).not.toContain('rel="stylesheet"');
  });
});

describe('item pages', () => {
  it('are named by the slug of the name, or the id when there is none or it is taken', () => {
    expect(slugOf('Crème brûlée — large!')).toBe('creme-brulee-large');
    expect(slugOf('☕')).toBe('');
    const paths = itemPaths([item({ id: 'a', name: 'Latte' }), item({ id: 'b', name: 'latte' }), item({ id: 'c', name: '☕' })]);
    expect([...paths.values()]).toEqual(['items/latte.html', 'items/b.html', 'items/c.html']);
  });
});

describe('money', () => {
  it('is an exact decimal from the integer of minor units, by the currency exponent', () => {
    expect(decimalAmount(575n, 'USD')).toBe('5.75');
    expect(decimalAmount(5n, 'USD')).toBe('0.05');
    expect(decimalAmount(500n, 'JPY')).toBe('500');
    expect(decimalAmount(123456789012345678n, 'USD')).toBe('1234567890123456.78');
    expect(formatMoney(575n, 'USD')).toBe('$5.75');
  });
});
