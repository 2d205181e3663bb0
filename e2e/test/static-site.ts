import { readFile, realpath } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
};

export type StaticSite = { server: Server; url: string };

/**
 * The smallest static host: GET of the files under `dir` (a published site's folder, read through its link
 * on each request as any host would), `/` as index.html, on 127.0.0.1 and a free port: another origin than
 * the gateway's. No header but the content type: a static host adds nothing the site relies on.
 */
export async function serveStatic(dir: string): Promise<StaticSite> {
  const server = createServer(async (request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? '/', 'http://site').pathname);
    // A browser asks every host for an icon; the site has none.
    if (path === '/favicon.ico') return void response.writeHead(204).end();
    const relative = normalize(path.endsWith('/') ? `${path}index.html` : path).replace(/^[/\\]+/, '');
    try {
      const root = await realpath(dir);
      const file = await realpath(join(root, relative));
      if (!file.startsWith(`${root}${sep}`) || request.method !== 'GET') throw new Error('outside');
      const body = await readFile(file);
      response.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(body);
    } catch {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
    }
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('the static host did not listen');
  return { server, url: `http://127.0.0.1:${address.port}/` };
}

export const stopStatic = (site: StaticSite | undefined) => new Promise<void>((done) => (site ? site.server.close(() => done()) : done()));
