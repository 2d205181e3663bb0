import { scrapeMetrics } from '@ctk/shared/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, onboard, startTestGateway, type Gateway } from './harness.js';
import { SERVICES_DOWN, uniqueName } from './support.js';

let gateway: Gateway;
beforeAll(async () => {
  gateway = await startTestGateway({ ...SERVICES_DOWN, METRICS_PORT: '0' });
});
afterAll(() => gateway?.close());

const CAPABILITIES = '/api/v1/orgs/:handle/capabilities';

describe('the gateway metrics', () => {
  it('are served on the metrics port, never on the public one', async () => {
    expect(gateway.metricsPort).toBeGreaterThan(0);
    expect(gateway.metricsPort).not.toBe(gateway.port);
    const publicMetrics = await fetch(`http://127.0.0.1:${gateway.port}/metrics`);
    expect(publicMetrics.status).toBe(404);
    await publicMetrics.text();
    const scrape = await scrapeMetrics(gateway.metricsPort!);
    expect(scrape.types.get('ctk_http_requests_total')).toBe('counter');
    expect(scrape.value('process_resident_memory_bytes')).toBeGreaterThan(0);
  });

  it('count each request by its route template and status, unmatched paths as one route, and time them', async () => {
    const base = `http://127.0.0.1:${gateway.port}`;
    const before = await scrapeMetrics(gateway.metricsPort!);
    for (const handle of ['alpha-cafe', 'beta-bakery']) (await fetch(`${base}/api/v1/orgs/${handle}/capabilities`)).body?.cancel();
    for (const path of ['/no/such/page', '/another/unknown/path?x=1']) (await fetch(`${base}${path}`)).body?.cancel();
    // A route that calls the services, which are down here: the gateway's client counts the calls.
    const owner = await onboard(gateway, uniqueName('Metrics Cafe'));
    const capabilities = await fetch(`${base}/api/v1/orgs/${owner.handle}/capabilities`, { headers: bearer(owner.key) });
    await capabilities.text();

    const scrape = await scrapeMetrics(gateway.metricsPort!);
    const delta = (name: string, labels: Record<string, string>) => (scrape.value(name, labels) ?? 0) - (before.value(name, labels) ?? 0);
    expect(delta('ctk_http_requests_total', { method: 'GET', route: CAPABILITIES, status: '401' })).toBe(2);
    expect(delta('ctk_http_requests_total', { method: 'GET', route: 'unmatched', status: '404' })).toBe(2);
    expect(delta('ctk_http_requests_total', { method: 'POST', route: '/api/v1/onboard', status: '201' })).toBe(1);
    expect(
      delta('ctk_http_requests_total', { method: 'GET', route: CAPABILITIES, status: String(capabilities.status) }),
    ).toBeGreaterThanOrEqual(1);
    expect(delta('ctk_http_request_duration_seconds_count', { method: 'GET', route: CAPABILITIES })).toBe(3);
    expect(scrape.types.get('ctk_http_request_duration_seconds')).toBe('histogram');
    // Route templates, never what the client sent.
    const routes = new Set(scrape.samples.map((sample) => sample.labels.route).filter(Boolean));
    expect([...routes].filter((route) => /alpha|beta|unknown|no\/such|\?/.test(route!))).toEqual([]);
    expect(delta('ctk_grpc_client_calls_total', { code: 'UNAVAILABLE' })).toBeGreaterThanOrEqual(1);
    expect(scrape.samples.every((sample) => sample.labels.app === 'gateway')).toBe(true);
  });
});
