import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AppError } from '@ctk/shared';
import type { FastifyInstance, FastifyReply } from 'fastify';

/**
 * The counter screen (`/pos`), the customer page (`/pay/:order_number`), a pay link's page (`/l/:id`) and a referral
 * link's buyer's page (`/r/:id`): plain HTML, CSS and ES modules in `apps/gateway/pages`, read once at start (the
 * package's `files` ship the folder in the production bundle). Outside the API catalog, as `/docs` is: they are pages
 * that call the API.
 */
export const PAGES_DIR = fileURLToPath(new URL('../../pages', import.meta.url));

export const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.svg': 'image/svg+xml',
};

/**
 * No inline script or style, nothing from another origin: a page that holds an API key runs only the
 * gateway's own modules, and may not be framed (clickjacking a Confirm or Cancel button).
 */
const PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

// The numbers pos gives are 10 characters of Crockford base32; the page itself says "not found" for one
// that does not exist, so this only keeps junk (and other paths) out.
const ORDER_NUMBER = /^[0-9A-Za-z]{4,32}$/;
// A pay link's id is a UUID; the page says "no such link" for one pos does not have.
const PAY_LINK_ID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
// A referral link's id is "ref_" and 24 URL-safe characters; the page says "not found" for one contracts does not have.
const REFERRAL_LINK_ID = /^ref_[A-Za-z0-9_-]{24}$/;

type Asset = { body: Buffer; type: string };

/** Registers the pages and their assets; assets live under `/ui/<version>/`, the version a hash of them all. */
export function servePages(app: FastifyInstance): void {
  const assets = new Map<string, Asset>();
  const hash = createHash('sha256');
  for (const name of readdirSync(PAGES_DIR).sort()) {
    const type = CONTENT_TYPES[extname(name)];
    if (!type) continue;
    const body = readFileSync(join(PAGES_DIR, name));
    hash.update(name).update('\0').update(body);
    assets.set(name, { body, type });
  }
  const version = hash.digest('hex').slice(0, 12);
  const page = (name: string) => {
    const asset = assets.get(name);
    if (!asset) throw new Error(`${join(PAGES_DIR, name)} is missing: the pages folder is incomplete`);
    // Asset URLs carry the version, so a new release is fetched at once and an old one may be cached for a year.
    return asset.body.toString('utf8').replaceAll('%ASSETS%', `/ui/${version}`);
  };
  const counter = page('counter.html');
  const pay = page('pay.html');
  const link = page('link.html');
  const referral = page('referral.html');

  const sendPage = (reply: FastifyReply, html: string) =>
    secure(reply).header('cache-control', 'no-cache').type(CONTENT_TYPES['.html']!).send(html);

  app.get('/pos', async (_request, reply) => sendPage(reply, counter));
  app.get<{ Params: { order_number: string } }>('/pay/:order_number', async (request, reply) => {
    if (!ORDER_NUMBER.test(request.params.order_number)) throw new AppError('not_found', 'No such order number.');
    return sendPage(reply, pay);
  });
  app.get<{ Params: { id: string } }>('/l/:id', async (request, reply) => {
    if (!PAY_LINK_ID.test(request.params.id)) throw new AppError('not_found', 'No such pay link.');
    return sendPage(reply, link);
  });
  app.get<{ Params: { id: string } }>('/r/:id', async (request, reply) => {
    if (!REFERRAL_LINK_ID.test(request.params.id)) throw new AppError('not_found', 'No such referral link.');
    return sendPage(reply, referral);
  });
  app.get<{ Params: { version: string; file: string } }>('/ui/:version/:file', async (request, reply) => {
    const { version: asked, file } = request.params;
    const asset = file.endsWith('.html') ? undefined : assets.get(file);
    if (!asset) throw new AppError('not_found', `No page asset ${file}.`);
    // An old version's URL gets today's file, which must not be cached as if it were the old one.
    const cache = asked === version ? 'public, max-age=31536000, immutable' : 'no-cache';
    return secure(reply).header('cache-control', cache).type(asset.type).send(asset.body);
  });
}

export function secure(reply: FastifyReply): FastifyReply {
  return reply.header('content-security-policy', PAGE_CSP).header('referrer-policy', 'no-referrer');
}
