import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startOtlpReceiver, type ReceivedSpan } from '@ctk/shared/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, distributedUnavailable, freePort, ROOT, startDistributedInstance, stopInstance, until, wallet } from './instance.js';

const PROMETHEUS = '/usr/bin/prometheus';
const skip =
  (await distributedUnavailable()) ?? (existsSync(PROMETHEUS) ? undefined : `${PROMETHEUS} is not installed (Debian's prometheus)`);
if (skip) console.warn(`Prometheus does not scrape the distributed path: ${skip}`);
const APPS = ['gateway', 'books', 'pos', 'commerce', 'p2p', 'federation', 'contracts'];
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

/**
 * A real Prometheus (Debian's) scraping `npm run up:distributed` with the prometheus.yml it writes (every
 * process's metrics port, file_sd, job `ctk-<app>`) and the alerts of deploy/observability/: every app is up,
 * the metrics the dashboard and the alerts read are there, and a relay that cannot publish (its NATS server
 * killed) fires CtkOutboxStuck. That alert's minute and two are promtool's to test (deploy/test/observability.test.mjs):
 * here its threshold is 1 s and its `for` nothing, the rest as written.
 */
describe.skipIf(skip)('Prometheus scraping the distributed path, and its traces', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ctk-e2e-prometheus-'));
  let instance: Awaited<ReturnType<typeof startDistributedInstance>>;
  let receiver: Awaited<ReturnType<typeof startOtlpReceiver>>;
  let chainPort = 0;
  let prometheus: ChildProcess | undefined;
  let promUrl = '';
  const query = async (promql: string): Promise<Json[]> => {
    const answer = (await (await fetch(`${promUrl}/api/v1/query?query=${encodeURIComponent(promql)}`)).json()) as Json;
    return answer.data?.result ?? [];
  };

  /** A shop with a paymail and a wallet of its own, and a customer's wallet with coins to pay it. */
  const shopAndCustomer = async (name: string, alias: string) => {
    const merchant = await wallet(chainPort, join(dir, `${alias}-merchant.json`), 'create');
    const onboarded = await api(instance.base, 'POST', '/api/v1/onboard', undefined, {
      name,
      paymail_alias: alias,
      receiving_address: merchant.address,
      identity_public_key: merchant.public_key,
    });
    expect(onboarded.status).toBe(201);
    const customer = join(dir, `${alias}-customer.json`);
    await wallet(chainPort, customer, 'create');
    await wallet(chainPort, customer, 'faucet', '100000');
    return { customer, paymail: `${alias}@${new URL(instance.base).host}` };
  };

  beforeAll(async () => {
    chainPort = await freePort();
    // Every process exports its spans to one receiver, as to a collector (OTLP/HTTP), and logs at info.
    receiver = await startOtlpReceiver();
    instance = await startDistributedInstance({
      port: await freePort(),
      dataDir: join(dir, 'instance'),
      chainPort,
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_BSP_SCHEDULE_DELAY: '200', LOG_LEVEL: 'info' },
    });
    const config = join(dir, 'instance', 'prometheus', 'prometheus.yml');
    const rules = readFileSync(join(ROOT, 'deploy/observability/alerts.yml'), 'utf8')
      .replace('max by (app, instance) (ctk_outbox_oldest_age_seconds) > 60', 'max by (app, instance) (ctk_outbox_oldest_age_seconds) > 1')
      .replace(/(alert: CtkOutboxStuck[\s\S]*?)for: 2m\n/, '$1for: 0s\n');
    writeFileSync(join(dir, 'alerts.yml'), rules);
    writeFileSync(
      config,
      readFileSync(config, 'utf8')
        .replace(/scrape_interval: \d+s/, 'scrape_interval: 1s')
        .replace(/evaluation_interval: \d+s/, 'evaluation_interval: 1s')
        .replace(/- ".*alerts\.yml"/, `- ${JSON.stringify(join(dir, 'alerts.yml'))}`),
    );
    const port = await freePort();
    promUrl = `http://127.0.0.1:${port}`;
    prometheus = spawn(
      PROMETHEUS,
      [`--config.file=${config}`, `--storage.tsdb.path=${join(dir, 'tsdb')}`, `--web.listen-address=127.0.0.1:${port}`],
      {
        stdio: 'ignore',
      },
    );
    await until(
      () =>
        fetch(`${promUrl}/-/ready`).then(
          (response) => response.status,
          () => 0,
        ),
      (status) => status === 200,
      'Prometheus ready',
    );
  }, 300_000);

  afterAll(async () => {
    prometheus?.kill('SIGTERM');
    if (instance) await stopInstance(instance);
    await receiver?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('scrapes every app, and reads what the dashboard and the alerts read', async () => {
    const up = await until(
      () => query('up'),
      (result) => APPS.every((app) => result.some((sample) => sample.metric.job === `ctk-${app}` && sample.value[1] === '1')),
      'every app up',
    );
    expect(up.map((sample) => sample.metric.job).sort()).toEqual(APPS.map((app) => `ctk-${app}`).sort());
    // A request through the gateway, counted by its route template; its call to books, by both ends.
    const onboarded = await api(instance.base, 'POST', '/api/v1/onboard', undefined, { name: 'Scraped Cafe' });
    expect(onboarded.status).toBe(201);
    const ledger = await api(instance.base, 'GET', '/api/v1/orgs/scraped-cafe/ledger', onboarded.body.api_key.key);
    expect(ledger.status).toBe(200);
    await until(
      () => query('sum(ctk_http_requests_total{job="ctk-gateway", route="/api/v1/orgs/:handle/ledger", status="200"})'),
      (result) => Number(result[0]?.value[1] ?? 0) >= 1,
      'the ledger read counted',
    );
    await until(
      () => query('sum(ctk_grpc_server_calls_total{job="ctk-books", method="ctk.books.v1.BooksService/ListJournalEntries", code="OK"})'),
      (result) => Number(result[0]?.value[1] ?? 0) >= 1,
      "books's answer counted",
    );
    await until(
      () =>
        query(
          'sum(ctk_grpc_client_calls_total{job="ctk-gateway", service="ctk.books.v1.BooksService", method="ListJournalEntries", code="OK"})',
        ),
      (result) => Number(result[0]?.value[1] ?? 0) >= 1,
      "the gateway's call counted",
    );
    // Each emitting app's outbox gauges, and books' and commerce's consumer lag on NATS.
    const outboxes = await query('ctk_outbox_backlog');
    expect(outboxes.map((sample) => sample.metric.app).sort()).toEqual(['commerce', 'contracts', 'p2p', 'pos']);
    const lag = await query('ctk_consumer_lag');
    expect(lag.map((sample) => sample.metric.consumer).sort()).toEqual(['books', 'commerce']);
    expect((await query('ctk_parked_events')).map((sample) => sample.metric.app)).toEqual(['books']);
    expect((await query('sum by (app) (process_resident_memory_bytes{job=~"ctk.*"})')).length).toBe(APPS.length);
  });

  it('traces one paymail payment as one trace: the gateway, p2p, its outbox relay, NATS and books', async () => {
    const { customer, paymail } = await shopAndCustomer('Traced Cafe', 'traced');
    await wallet(chainPort, customer, 'pay', paymail, '--amount', '1200');

    // The request that delivered the transaction, as the gateway traced it, and everything in its trace.
    const delivered = await until(
      async () => receiver.spans().find((span) => /^POST \/api\/v1\/bsvalias\/(receive-transaction|beef)\/:paymail$/.test(span.name)),
      Boolean,
      "the gateway's span of the delivery",
    );
    const inTrace = () => receiver.spans().filter((span) => span.traceId === delivered!.traceId);
    const parentOf = (span: ReceivedSpan) => inTrace().find((candidate) => candidate.spanId === span.parentSpanId);
    // The step a span belongs to: its nearest ancestor that is not a database call (Prisma's `prisma:client:*`).
    const stepAbove = (span: ReceivedSpan): ReceivedSpan | undefined => {
      const parent = parentOf(span);
      return parent?.name.startsWith('prisma:') ? stepAbove(parent) : parent;
    };
    const childrenOf = (parent: ReceivedSpan, where: Partial<ReceivedSpan>) =>
      inTrace().filter(
        (span) =>
          !span.name.startsWith('prisma:') &&
          stepAbove(span)?.spanId === parent.spanId &&
          Object.entries(where).every(([key, value]) => span[key as keyof ReceivedSpan] === value),
      );
    await until(
      async () => inTrace().filter((span) => span.service === 'ctk-books' && span.kind === 5),
      (spans) => spans.length > 0,
      "books's span of the payment event",
    );
    expect(delivered).toMatchObject({ service: 'ctk-gateway', kind: 2, parentSpanId: '' });
    expect(delivered!.attributes['http.response.status_code']).toBe(200);
    const [call] = childrenOf(delivered!, { service: 'ctk-gateway', kind: 3, name: 'ctk.p2p.v1.P2pService/ReceiveP2pTransaction' });
    const [answered] = childrenOf(call!, { service: 'ctk-p2p', kind: 2, name: 'ctk.p2p.v1.P2pService/ReceiveP2pTransaction' });
    const [published] = childrenOf(answered!, { service: 'ctk-p2p', kind: 4, name: 'publish ctk.payments.payment.received' });
    const [posted] = childrenOf(published!, { service: 'ctk-books', kind: 5, name: 'process ctk.payments.payment.received' });
    expect(posted!.attributes).toMatchObject({
      'messaging.system': 'nats',
      'messaging.consumer.group.name': 'books',
      'ctk.outcome': 'posted',
    });
    // Books writes the entry in a batch (group commit): a span in this trace, and the statements under the
    // batch's own span, which is this one or the one it links to when another event's trace came first.
    const [write] = childrenOf(posted!, { service: 'ctk-books', name: 'books.journal.write' });
    expect(write!.attributes['batch.size']).toBeGreaterThanOrEqual(1);
    const batchId = write!.links[0]?.spanId ?? write!.spanId;
    const under = (span: ReceivedSpan | undefined, ancestor: string): boolean =>
      span !== undefined &&
      (span.parentSpanId === ancestor ||
        under(
          receiver.spans().find((one) => one.spanId === span.parentSpanId),
          ancestor,
        ));
    await until(
      async () => receiver.spans().filter((span) => span.name === 'prisma:client:db_query' && under(span, batchId)),
      (spans) => spans.length > 0,
      "books's statements writing the entry",
    );
    // p2p's statements recording the payment are in the trace, within its handler's span, as Prisma traces them.
    const statements = inTrace().filter((span) => span.name === 'prisma:client:db_query' && stepAbove(span)?.spanId === answered!.spanId);
    expect(statements.length).toBeGreaterThan(0);
    expect(statements.every((span) => span.service === 'ctk-p2p' && span.attributes['db.system.name'] === 'postgresql')).toBe(true);

    // The gateway's line for that request names it and its trace.
    const logs = join(dir, 'instance', 'logs');
    const lines = readdirSync(logs)
      .filter((file) => file.startsWith('gateway'))
      .flatMap((file) => readFileSync(join(logs, file), 'utf8').split('\n'))
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Json);
    const line = lines.find((entry) => entry.msg === 'request' && entry.trace_id === delivered!.traceId);
    expect(line).toMatchObject({ route: delivered!.attributes['http.route'], status: 200, span_id: delivered!.spanId });
    expect(line!.reqId).toMatch(/^[\w.-]{1,64}$/);
  });

  it('fires CtkOutboxStuck for p2p when its relay cannot publish: a paymail payment taken while NATS is down', async () => {
    const { customer, paymail } = await shopAndCustomer('Outbox Cafe', 'outbox');
    instance.stopNats();
    // The payment is taken (its event waits in p2p's outbox), and the alert fires on the outbox's age.
    const paid = await wallet(chainPort, customer, 'pay', paymail, '--amount', '1500');
    expect(paid.txid).toMatch(/^[0-9a-f]{64}$/);
    const alerts = await until(
      async () => ((await (await fetch(`${promUrl}/api/v1/alerts`)).json()) as Json).data.alerts as Json[],
      (list) => list.some((alert) => alert.labels.alertname === 'CtkOutboxStuck' && alert.state === 'firing'),
      'CtkOutboxStuck firing',
      300,
    );
    const stuck = alerts.filter((alert) => alert.labels.alertname === 'CtkOutboxStuck' && alert.state === 'firing');
    expect(stuck.map((alert) => alert.labels.app)).toEqual(['p2p']);
    expect(stuck[0]!.annotations.summary).toBe('p2p has not published an event for over a minute');
  });
});
