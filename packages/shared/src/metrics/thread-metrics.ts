import type { MessagePort } from 'node:worker_threads';
import { AggregatorRegistry } from 'prom-client';
import { collectNodeMetrics, metricsRegistry } from './metrics.js';

type MetricsJson = Awaited<ReturnType<typeof metricsRegistry.getMetricsAsJSON>>;
type Asked = { metrics: 'ask'; id: number } | { metrics: 'answer'; id: number; json: MetricsJson };

/** Other threads of the process whose registries a scrape here reads too, each with the asks waiting on it. */
const linked = new Map<MessagePort, Map<number, (json: MetricsJson) => void>>();
let lastAsk = 0;

/**
 * Shares the registries of this thread and the thread at the other end of `port` (a thread running an app of
 * this process, decision 0059): a scrape on either reads both. Each thread's series carry its own `app` label;
 * the process's own figures (its CPU, its memory) appear under each.
 */
export function linkThreadMetrics(port: MessagePort): void {
  const waiting = new Map<number, (json: MetricsJson) => void>();
  linked.set(port, waiting);
  port.on('message', (message: Asked) => {
    if (message.metrics === 'ask') {
      // This thread's Node metrics (its event loop, its heap) from the first scrape that reads them.
      collectNodeMetrics();
      void metricsRegistry.getMetricsAsJSON().then((json) => port.postMessage({ metrics: 'answer', id: message.id, json } satisfies Asked));
    } else if (message.metrics === 'answer') waiting.get(message.id)?.(message.json);
  });
  port.once('close', () => {
    linked.delete(port);
    for (const answer of waiting.values()) answer([]);
  });
}

/** The metrics a scrape answers: this thread's registry, and every linked thread's beside it. */
export async function scrapedMetrics(): Promise<string> {
  if (linked.size === 0) return metricsRegistry.metrics();
  const others = [...linked].map(
    ([port, waiting]) =>
      new Promise<MetricsJson>((answer) => {
        const id = ++lastAsk;
        waiting.set(id, (json) => {
          waiting.delete(id);
          answer(json);
        });
        port.postMessage({ metrics: 'ask', id } satisfies Asked);
      }),
  );
  const all = await Promise.all([metricsRegistry.getMetricsAsJSON(), ...others]);
  // Each thread's series differ by their `app` label, so summing series of one name and labels only lists them
  // together (prom-client's own aggregators would average or omit some of them, as for a cluster's copies).
  const listed = all.map((metrics) => metrics.map((one) => ({ ...one, aggregator: 'sum' })));
  return AggregatorRegistry.aggregate(listed).metrics();
}
