import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';

/**
 * `checkout.js`, the Buy button a merchant embeds in their own pages (decision 0018): one classic script in
 * `apps/gateway/embed/<version>/`, served at `/checkout/<version>/checkout.js`. A released version never
 * changes: merchants pin it with an SRI hash, so it is cached for a year, immutable, and readable by any
 * origin (`crossorigin="anonymous"` is what lets the browser check the hash). v1 stays served for the pages
 * that pinned it; v2 (the stablecoin beside bitcoin, decision 0036) is the one new snippets quote.
 */
const CHECKOUT_SCRIPT_VERSIONS = ['v1', 'v2'];
/** The version the back office's snippet and published sites load. */
export const CURRENT_CHECKOUT_SCRIPT = 'v2';
export const EMBED_DIR = fileURLToPath(new URL('../../embed', import.meta.url));

export function serveCheckoutScript(app: FastifyInstance): void {
  for (const version of CHECKOUT_SCRIPT_VERSIONS) {
    const body = readFileSync(`${EMBED_DIR}/${version}/checkout.js`);
    app.get(`/checkout/${version}/checkout.js`, async (_request, reply) =>
      reply
        .header('cache-control', 'public, max-age=31536000, immutable')
        .header('access-control-allow-origin', '*')
        .header('cross-origin-resource-policy', 'cross-origin')
        .type('text/javascript; charset=utf-8')
        .send(body),
    );
  }
}
