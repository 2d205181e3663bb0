import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { collectNodeMetrics, metricsRegistry } from './metrics.js';
import { scrapedMetrics } from './thread-metrics.js';

export type MetricsListener = { port: number; close(): Promise<void> };

/**
 * Serves the process's registry (every thread's that runs an app) at `GET /metrics` (Prometheus's text format) on a port of its own, never an
 * app's public one: METRICS_PORT, 0 for any free port. Anything else there is 404. The bootstrap starts it
 * (startService) and closes it last, so that a scrape still answers while the app shuts down.
 */
export async function startMetricsListener(options: { host: string; port: number }): Promise<MetricsListener> {
  collectNodeMetrics();
  const server = createServer((request, response) => {
    const path = request.url?.split('?')[0];
    if (path !== '/metrics' || (request.method !== 'GET' && request.method !== 'HEAD')) {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found: metrics are at GET /metrics\n');
      return;
    }
    scrapedMetrics().then(
      (text) => {
        response.writeHead(200, { 'content-type': metricsRegistry.contentType });
        response.end(request.method === 'HEAD' ? undefined : text);
      },
      (error: unknown) => {
        response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
        response.end(`metrics could not be read: ${error instanceof Error ? error.message : String(error)}\n`);
      },
    );
  });
  await new Promise<void>((listening, failed) => {
    server.once('error', failed);
    server.listen(options.port, options.host, () => {
      server.off('error', failed);
      listening();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((closed) => {
        server.close(() => closed());
        // A scraper keeps its connection open between scrapes: it must not hold the shutdown.
        server.closeAllConnections();
      }),
  };
}
