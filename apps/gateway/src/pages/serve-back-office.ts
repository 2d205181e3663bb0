import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { extname, join, resolve } from 'node:path';
import { AppError } from '@ctk/shared';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { RUNGS } from '../catalog/capabilities.js';
import { capabilityPath } from '../descriptors/capability-descriptor.js';
import { HANDLE } from '../identity/organization-fields.js';
import { CONTENT_TYPES, secure } from './serve-pages.js';

/** The back office's pages: each answers its index.html, whose script shows the page the path names. */
const PAGES = ['/', '/settings'];
/** Each capability's page of an organisation (its `path` in the capability descriptor), and its orders. */
const ORGANIZATION_PAGES = new Set([
  ...RUNGS.flatMap((rung) => rung.capabilities.map((c) => capabilityPath(c).split('/').at(-1)!)),
  'orders',
]);

/**
 * The built back office (apps/back-office: `vite build` into dist/), read once at start: index.html at each
 * of its pages, and its hashed assets under `/app/assets/`, cached for good (a new build has new names).
 * The pages' Content-Security-Policy holds: the build has no inline script or style.
 */
export function serveBackOffice(app: FastifyInstance, dir: string): void {
  const root = resolve(dir);
  const indexFile = join(root, 'index.html');
  if (!existsSync(indexFile)) throw new Error(`CTK_BACK_OFFICE_DIR=${dir} has no index.html: build the back office first (pnpm build)`);
  const index = readFileSync(indexFile);
  const assets = new Map<string, { body: Buffer; type: string }>();
  for (const name of existsSync(join(root, 'assets')) ? readdirSync(join(root, 'assets')) : []) {
    const type = CONTENT_TYPES[extname(name)];
    if (type) assets.set(name, { body: readFileSync(join(root, 'assets', name)), type });
  }
  const sendIndex = (reply: FastifyReply) => secure(reply).header('cache-control', 'no-cache').type(CONTENT_TYPES['.html']!).send(index);
  for (const page of PAGES) app.get(page, async (_request, reply) => sendIndex(reply));
  app.get<{ Params: { handle: string; page: string } }>('/o/:handle/:page', async (request, reply) => {
    const { handle, page } = request.params;
    if (!HANDLE.test(handle) || !ORGANIZATION_PAGES.has(page)) throw new AppError('not_found', 'No such back office page.');
    return sendIndex(reply);
  });
  app.get<{ Params: { file: string } }>('/app/assets/:file', async (request, reply) => {
    const asset = assets.get(request.params.file);
    if (!asset) throw new AppError('not_found', `No back office asset ${request.params.file}.`);
    return secure(reply).header('cache-control', 'public, max-age=31536000, immutable').type(asset.type).send(asset.body);
  });
}
