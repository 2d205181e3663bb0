#!/usr/bin/env node
// The demo shop: a static page on its own origin that embeds the Buy button from a running gateway.
//
//   DEMO_COMMERCE_KEY=ctk_pk_... node examples/demo-shop/serve.mjs
//   DEMO_SNIPPET_FILE=snippet.html node examples/demo-shop/serve.mjs
//
// CTK_GATEWAY (default http://localhost:8080) is the gateway; DEMO_MERCHANT (default blue-bottle-cafe) the
// merchant's handle; DEMO_ITEM an item of its catalog (default: the catalog's first); DEMO_PORT (default 8090)
// where the shop listens. Or DEMO_SNIPPET_FILE: the Buy button snippet as the back office's settings give it
// (the script tag and the element), pasted into the page in place of the shop's own two lines; the gateway,
// merchant, item and commerce key are then the snippet's. The page is index.html with these filled in, under a
// strict Content-Security-Policy that allows the gateway's origin only for the script, its QR images and its API.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';

const dir = import.meta.dirname;
const snippet = process.env.DEMO_SNIPPET_FILE ? pastedSnippet(readFileSync(process.env.DEMO_SNIPPET_FILE, 'utf8')) : null;
const gateway = snippet?.gateway ?? new URL(process.env.CTK_GATEWAY || 'http://localhost:8080').origin;
const merchant = snippet?.merchant ?? (process.env.DEMO_MERCHANT || 'blue-bottle-cafe');
const commerceKey = snippet?.commerceKey ?? process.env.DEMO_COMMERCE_KEY;
const port = Number(process.env.DEMO_PORT || 8090);
const host = process.env.DEMO_HOST || '127.0.0.1';
if (!commerceKey) {
  console.error('Set DEMO_COMMERCE_KEY to the merchant commerce key (POST /api/v1/orgs/:handle/commerce-key).');
  process.exit(1);
}

/** The snippet a merchant copies from the back office's settings: its script's origin and its element's attributes. */
function pastedSnippet(text) {
  const script = /<script\s[^>]*src="([^"]+\/checkout\/v\d+\/checkout\.js)"[^>]*><\/script>/.exec(text);
  const element = /<ctk-buy-button\s([^>]*)>[\s\S]*?<\/ctk-buy-button>/.exec(text);
  if (!script || !element) {
    console.error(`${process.env.DEMO_SNIPPET_FILE}: not a Buy button snippet (a checkout.js script tag and a <ctk-buy-button> element).`);
    process.exit(1);
  }
  const attribute = (name) => new RegExp(`(?:^|\\s)${name}="([^"]*)"`).exec(element[1])?.[1];
  return {
    html: `${script[0]}\n${element[0]}`,
    gateway: new URL(script[1]).origin,
    merchant: attribute('merchant'),
    item: attribute('item'),
    commerceKey: attribute('commerce-key'),
  };
}

async function commerce(path) {
  const response = await fetch(`${gateway}/api/v1/commerce/${encodeURIComponent(merchant)}${path}`, {
    headers: { 'x-commerce-key': commerceKey },
  });
  const body = await response.json();
  if (!response.ok) throw new Error(`${path || '/'}: ${response.status} ${JSON.stringify(body)}`);
  return body;
}

const profile = await commerce('');
const itemId = snippet?.item ?? process.env.DEMO_ITEM;
const item = itemId ? await commerce(`/catalog/${encodeURIComponent(itemId)}`) : (await commerce('/catalog')).items[0];
if (!item) throw new Error(`${merchant} has nothing for sale: create an item first.`);

const escape = (text) =>
  String(text).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
/** Minor units through a decimal string built from the integer, as checkout.js does: no float. */
function money(minor, currency) {
  const format = new Intl.NumberFormat('en-US', { style: 'currency', currency });
  const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
  const text = String(minor).padStart(digits + 1, '0');
  return format.format(digits ? `${text.slice(0, -digits)}.${text.slice(-digits)}` : text);
}
const price = money(item.price_minor, item.currency);
const fields = {
  GATEWAY: gateway,
  MERCHANT: merchant,
  COMMERCE_KEY: commerceKey,
  ITEM: item.id,
  ITEM_NAME: item.name,
  ITEM_DESCRIPTION: item.description,
  ITEM_PRICE: `${price}${profile.prices_include_tax ? '' : ' plus tax'}`,
  SHOP_NAME: profile.name,
};
const shopPage = readFileSync(join(dir, 'index.html'), 'utf8').replace(/%([A-Z_]+)%/g, (all, name) =>
  name in fields ? escape(fields[name]) : all,
);
// A pasted snippet stands where the element was, and the shop's own script tag for checkout.js goes.
const page = snippet
  ? shopPage
      .replace(/<script\s+src="[^"]*\/checkout\/v\d+\/checkout\.js"[\s\S]*?<\/script>\n\s*/, '')
      .replace(/<ctk-buy-button[\s\S]*?<\/ctk-buy-button\s*>/, snippet.html)
  : shopPage;
const files = {
  '/': { type: 'text/html; charset=utf-8', body: page },
  '/shop.js': { type: 'text/javascript; charset=utf-8', body: readFileSync(join(dir, 'shop.js')) },
  '/shop.css': { type: 'text/css; charset=utf-8', body: readFileSync(join(dir, 'shop.css')) },
};
const policy = [
  "default-src 'none'",
  `script-src 'self' ${gateway}`,
  "style-src 'self'",
  `img-src 'self' ${gateway}`,
  `connect-src ${gateway}`,
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

const server = createServer((request, response) => {
  const path = new URL(request.url ?? '/', 'http://shop').pathname;
  if (path === '/favicon.ico') return void response.writeHead(204).end();
  const file = files[path];
  if (!file || request.method !== 'GET') {
    response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
    return;
  }
  response.writeHead(200, { 'content-type': file.type, 'content-security-policy': policy, 'cache-control': 'no-cache' }).end(file.body);
});
server.listen(port, host, () => console.log(`Demo shop at http://${host}:${port}/ (Buy button from ${gateway})`));
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.close(() => process.exit(0)));
