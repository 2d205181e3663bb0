import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';

/**
 * `checkout.js`, the Buy button a merchant embeds in their own pages (decision 0018): one classic script in
 * `apps/gateway/embed/<version>/`, served at `/checkout/<version>/checkout.js`. A released version never
 * changes: merchants pin it with an SRI hash, so it is cached for a year, immutable, and readable by any
 * origin (`crossorigin="anonymous"` is what lets the browser check the hash).
 */
export const CHECKOUT_SCRIPT_VERSIONS = ['v1'] as const;
export const EMBED_DIR = fileURLToPath(new URL('../../embed', import.meta.url));

export function checkoutScriptPath(version: (typeof CHECKOUT_SCRIPT_VERSIONS)[number]): string {
  return `/checkout/${version}/checkout.js`;
}

export function serveCheckoutScript(app: FastifyInstance, dir = EMBED_DIR): void {
  for (const version of CHECKOUT_SCRIPT_VERSIONS) {
    const body = readFileSync(`${dir}/${version}/checkout.js`);
    app.get(checkoutScriptPath(version), async (_request, reply) =>
      reply
        .header('cache-control', 'public, max-age=31536000, immutable')
        .header('access-control-allow-origin', '*')
        .header('cross-origin-resource-policy', 'cross-origin')
        .type('text/javascript; charset=utf-8')
        .send(body),
    );
  }
}
