import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { AppError } from '../errors.js';
import { within } from '../events/within.js';

/*
 * The process's one Prometheus registry (docs/decisions/0042-metrics.md): prom-client's default Node metrics
 * under their usual names, and the project's own, each named ctk_..., all with the default label `app`. The
 * metrics are counted where each thing happens (the gRPC server and client, the outbox relay, the consumers,
 * the gateway's response hook, the money paths); the listener (metrics-listener.ts) serves them. Labels are
 * bounded: route templates, method names, status codes, fixed outcomes; never a URL, an id or an amount.
 */

/** Where Prometheus reads this process's metrics. */
export const metricsRegistry = new Registry();

/** Durations in seconds: from half a millisecond (a call on localhost) to half a minute (a streamed export). */
const SECONDS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** How long a read made when scraped may take before it counts as failed (its gauge reads NaN). */
const READ_TIMEOUT_MS = 2_000;

const registers = [metricsRegistry];
const httpRequests = new Counter({
  name: 'ctk_http_requests_total',
  help: 'HTTP requests the gateway answered, by method, route template and status.',
  labelNames: ['method', 'route', 'status'] as const,
  registers,
});
const httpDuration = new Histogram({
  name: 'ctk_http_request_duration_seconds',
  help: 'Time the gateway took to answer an HTTP request, by method and route template.',
  labelNames: ['method', 'route'] as const,
  buckets: SECONDS,
  registers,
});
const grpcServerCalls = new Counter({
  name: 'ctk_grpc_server_calls_total',
  help: 'gRPC calls a service answered, by method (package.Service/Method) and status code.',
  labelNames: ['method', 'code'] as const,
  registers,
});
const grpcServerDuration = new Histogram({
  name: 'ctk_grpc_server_call_duration_seconds',
  help: 'Time a service took to answer a gRPC call (a stream: until its last message), by method.',
  labelNames: ['method'] as const,
  buckets: SECONDS,
  registers,
});
const grpcClientCalls = new Counter({
  name: 'ctk_grpc_client_calls_total',
  help: 'gRPC calls made to a service, by service (package.Service), method and status code.',
  labelNames: ['service', 'method', 'code'] as const,
  registers,
});
const grpcClientDuration = new Histogram({
  name: 'ctk_grpc_client_call_duration_seconds',
  help: 'Time a gRPC call to a service took, as the caller saw it, by service and method.',
  labelNames: ['service', 'method'] as const,
  buckets: SECONDS,
  registers,
});
const outboxPublished = new Counter({
  name: 'ctk_outbox_published_total',
  help: 'Outbox events the transport acknowledged.',
  registers,
});
const outboxPublishFailures = new Counter({
  name: 'ctk_outbox_publish_failures_total',
  help: 'Outbox events the transport refused (each stays in the outbox and is published again later).',
  registers,
});
const eventsConsumed = new Counter({
  name: 'ctk_events_consumed_total',
  help: "Events a durable consumer handled, by consumer and outcome (the consumer's own, or failed: delivered again later).",
  labelNames: ['consumer', 'outcome'] as const,
  registers,
});
const eventsParked = new Counter({
  name: 'ctk_events_parked_total',
  help: 'Payment events books parked because it cannot post them (each once, however often delivered).',
  registers,
});
const payments = new Counter({
  name: 'ctk_payments_total',
  help: 'Payments accepted or refused, by money path and outcome (accepted, duplicate, refused, error).',
  labelNames: ['path', 'outcome'] as const,
  registers,
});

const batchSizes = new Histogram({
  name: 'ctk_group_commit_batch_size',
  help: 'Items written together in one batch of a group commit (journal entries, card uses), by what it writes.',
  labelNames: ['write'] as const,
  buckets: [1, 2, 4, 8, 16, 32, 64, 128, 256, 512],
  registers,
});

const runningApps = new Map<string, number>();
/**
 * Marks an app as running in this process, for the `app` label: the app the process runs. Apps sharing a
 * process (the embedded default, tests) share its registry, and while several run the label reads
 * `embedded`. The answer marks it stopped.
 */
export function markAppRunning(app: string): () => void {
  runningApps.set(app, (runningApps.get(app) ?? 0) + 1);
  labelWithApp();
  return () => {
    const left = (runningApps.get(app) ?? 1) - 1;
    if (left > 0) runningApps.set(app, left);
    else runningApps.delete(app);
    labelWithApp();
  };
}

function labelWithApp(): void {
  const apps = [...runningApps.keys()];
  if (apps.length > 0) metricsRegistry.setDefaultLabels({ app: apps.length === 1 ? apps[0]! : 'embedded' });
}

let defaultsCollected = false;
/** prom-client's default metrics (process CPU and memory, event loop lag, heap, GC, handles), once a process. */
export function collectNodeMetrics(): void {
  if (defaultsCollected) return;
  defaultsCollected = true;
  collectDefaultMetrics({ register: metricsRegistry });
}

/** Records a batch of `size` items a group commit wrote together; `write` is its span's name (a fixed name). */
export function observeBatch(write: string, size: number): void {
  batchSizes.observe({ write }, size);
}

/** Counts one HTTP answer of the gateway: `route` is the template Fastify matched, absent for none (`unmatched`). */
export function countHttpRequest(method: string, route: string | undefined, status: number, seconds: number): void {
  const matched = route ?? 'unmatched';
  httpRequests.inc({ method, route: matched, status: String(status) });
  httpDuration.observe({ method, route: matched }, seconds);
}

/** Starts timing a gRPC call a service answers; call the answer with its status code's name (OK, NOT_FOUND, ...) when it ends. */
export function timeGrpcServerCall(method: string): (code: string) => void {
  const started = performance.now();
  return (code) => {
    grpcServerCalls.inc({ method, code });
    grpcServerDuration.observe({ method }, (performance.now() - started) / 1000);
  };
}

/** Starts timing a gRPC call to a service; call the answer with its status code's name when it ends. */
export function timeGrpcClientCall(service: string, method: string): (code: string) => void {
  const started = performance.now();
  return (code) => {
    grpcClientCalls.inc({ service, method, code });
    grpcClientDuration.observe({ service, method }, (performance.now() - started) / 1000);
  };
}

/** Counts what one pass of an outbox relay published and what the transport refused. */
export function countOutboxPublishes(published: number, failed: number): void {
  if (published > 0) outboxPublished.inc(published);
  if (failed > 0) outboxPublishFailures.inc(failed);
}

/** Counts one event a durable consumer handled, with its outcome. */
export function countConsumedEvent(consumer: string, outcome: string): void {
  eventsConsumed.inc({ consumer, outcome });
}

/** Counts an event parked (books): once per event, not per delivery. */
export function countParkedEvent(): void {
  eventsParked.inc();
}

/** The money paths a payment is accepted or refused on, each where its service decides it. */
export type PaymentPath = 'paymail' | 'paygate' | 'bip270' | 'chain_watcher' | 'gift_card' | 'stablecoin' | 'provider_webhook';

/**
 * Runs the acceptance of one payment and counts it once on its path: as `decided` reads the answer
 * (`accepted`; `duplicate`: the same payment again, answered as before and recorded once; `refused` when the
 * refusal is answered rather than thrown; undefined: not a payment), or, when it throws, as `refused` (an
 * AppError for the payer: a 4xx) or `error` (it could not be decided: anything else). The answer or the
 * error goes on unchanged.
 */
export async function countPayment<T>(
  path: PaymentPath,
  accept: () => Promise<T>,
  decided: (answer: T) => 'accepted' | 'duplicate' | 'refused' | undefined = () => 'accepted',
): Promise<T> {
  let answer: T;
  try {
    answer = await accept();
  } catch (error) {
    payments.inc({ path, outcome: AppError.is(error) && error.httpStatus < 500 ? 'refused' : 'error' });
    throw error;
  }
  const outcome = decided(answer);
  if (outcome) payments.inc({ path, outcome });
  return answer;
}

/**
 * A gauge read when Prometheus scrapes, from its sources: registered while it has one (so an app without
 * the thing it measures shows none), each source's read bounded by READ_TIMEOUT_MS; a read that fails shows NaN.
 */
function scrapedGauge<S>(
  options: { name: string; help: string; labelNames?: readonly string[] },
  show: (gauge: Gauge, sources: S[]) => Promise<void>,
) {
  const sources = new Set<S>();
  const gauge = new Gauge<string>({
    ...options,
    labelNames: options.labelNames ?? [],
    registers: [],
    async collect() {
      this.reset();
      await show(this, [...sources]);
    },
  });
  return {
    /** Adds a source; the answer removes it. */
    watch(source: S): () => void {
      if (sources.size === 0) metricsRegistry.registerMetric(gauge);
      sources.add(source);
      return () => {
        if (sources.delete(source) && sources.size === 0) metricsRegistry.removeSingleMetric(options.name);
      };
    },
  };
}

const read = <T>(source: () => Promise<T>): Promise<T | undefined> =>
  within(source(), READ_TIMEOUT_MS, 'a metrics read timed out').catch(() => undefined);

/** What an outbox holds unsent: how many rows, and the age of the oldest in seconds (0 when none). */
export type OutboxState = { backlog: number; oldestAgeSeconds: number };
type OutboxSource = () => Promise<OutboxState>;

// The outboxes of the process (one, but for apps sharing a process: summed, the oldest of all), read once a scrape for both gauges.
let outboxRead: Promise<Array<OutboxState | undefined>> | undefined;
const readOutboxes = (sources: OutboxSource[]) =>
  (outboxRead ??= Promise.all(sources.map((source) => read(source))).finally(() => (outboxRead = undefined)));
const showOutbox = (pick: (states: OutboxState[]) => number) => async (gauge: Gauge, sources: OutboxSource[]) => {
  const states = await readOutboxes(sources);
  gauge.set(states.every((state) => state !== undefined) ? pick(states as OutboxState[]) : NaN);
};
const outboxBacklog = scrapedGauge<OutboxSource>(
  { name: 'ctk_outbox_backlog', help: 'Outbox events not yet published, read from the outbox table when scraped.' },
  showOutbox((states) => states.reduce((sum, state) => sum + state.backlog, 0)),
);
const outboxOldestAge = scrapedGauge<OutboxSource>(
  {
    name: 'ctk_outbox_oldest_age_seconds',
    help: 'Age of the oldest unpublished outbox event in seconds (0 when none), read when scraped.',
  },
  showOutbox((states) => Math.max(0, ...states.map((state) => state.oldestAgeSeconds))),
);

/** Shows an emitting app's outbox in ctk_outbox_backlog and ctk_outbox_oldest_age_seconds; the answer stops. */
export function watchOutbox(source: OutboxSource): () => void {
  const unwatch = [outboxBacklog.watch(source), outboxOldestAge.watch(source)];
  return () => unwatch.forEach((stop) => stop());
}

const consumerLag = scrapedGauge<{ consumer: string; pending: () => Promise<number> }>(
  {
    name: 'ctk_consumer_lag',
    help: 'Messages waiting for a durable consumer (NATS: pending and unacknowledged), read from the broker when scraped.',
    labelNames: ['consumer'],
  },
  async (gauge, sources) => {
    const values = await Promise.all(sources.map((source) => read(source.pending)));
    sources.forEach((source, i) => gauge.set({ consumer: source.consumer }, values[i] ?? NaN));
  },
);

/** Shows a durable consumer's lag in ctk_consumer_lag (a transport that can tell it: NATS); the answer stops. */
export function watchConsumerLag(consumer: string, pending: () => Promise<number>): () => void {
  return consumerLag.watch({ consumer, pending });
}

const parkedEvents = scrapedGauge<() => Promise<number>>(
  { name: 'ctk_parked_events', help: "Payment events in books' parked table, read when scraped." },
  async (gauge, sources) => {
    const values = await Promise.all(sources.map((source) => read(source)));
    gauge.set(values.every((value) => value !== undefined) ? values.reduce((sum: number, value) => sum + value!, 0) : NaN);
  },
);

/** Shows how many events books holds parked in ctk_parked_events; the answer stops. */
export function watchParkedEvents(count: () => Promise<number>): () => void {
  return parkedEvents.watch(count);
}

const brokerConnected = scrapedGauge<() => boolean>(
  { name: 'ctk_broker_connected', help: 'Whether the app is connected to its broker (NATS) now: 1, or 0 while it reconnects.' },
  async (gauge, sources) => gauge.set(sources.every((connected) => connected()) ? 1 : 0),
);

/** Shows whether the app's NATS connection is up in ctk_broker_connected; the answer stops. */
export function watchBrokerConnection(connected: () => boolean): () => void {
  return brokerConnected.watch(connected);
}
