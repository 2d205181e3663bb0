#!/usr/bin/env node
// The SRI hash of checkout.js (apps/gateway/embed/v2/checkout.js, the version new snippets quote), as a
// merchant's script tag quotes it.
// `node scripts/checkout-sri.mjs` prints it; `--write` puts it in every doc that quotes the script tag
// (apps/gateway/test/checkout-script.test.ts fails while one of them quotes another).
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
const DOCS = ['README.md', 'docs/decisions/0018-commerce-checkout.md', 'examples/demo-shop/index.html'];

const integrity = `sha384-${createHash('sha384')
  .update(readFileSync(join(ROOT, 'apps/gateway/embed/v2/checkout.js')))
  .digest('base64')}`;
console.log(integrity);
if (process.argv.includes('--write')) {
  for (const doc of DOCS) {
    const path = join(ROOT, doc);
    const text = readFileSync(path, 'utf8');
    const updated = text.replace(/integrity="sha\d+-[A-Za-z0-9+/=]+"/g, `integrity="${integrity}"`);
    if (updated !== text) {
      writeFileSync(path, updated);
      console.log(`updated ${doc}`);
    }
  }
}
