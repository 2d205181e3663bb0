// The thread of an app started by startServiceThread (service-thread.ts): it links with the thread that started
// it, starts the app through the one bootstrap, answers where it serves, and closes it when asked.
import { parentPort, workerData } from 'node:worker_threads';
import { loadConfig } from '../config.js';
import { linkThread } from '../grpc/in-process.js';
import { createLogger } from '../logger.js';
import { linkThreadMetrics } from '../metrics/thread-metrics.js';
import { startTracing } from '../tracing/tracing.js';
import type { ServiceThreadData, ServiceThreadReply } from './service-thread.js';
import { startService } from './start-service.js';

const { module, env, tracingName, link } = workerData as ServiceThreadData;
const reply = (message: ServiceThreadReply) => parentPort!.postMessage(message);
linkThread(link);
linkThreadMetrics(link);
try {
  if (tracingName) await startTracing(tracingName);
  const { configSchema, service } = (await import(module)) as { configSchema: never; service: Parameters<typeof startService>[0] };
  const config = loadConfig(configSchema, env) as Parameters<typeof startService>[1];
  const app = await startService(service, config, { logger: createLogger(service.name, config.LOG_LEVEL as never) });
  parentPort!.once('message', () => {
    void app.close().finally(() => reply({ closed: true }));
  });
  reply({ started: { port: app.port, ...(app.metricsPort === undefined ? {} : { metricsPort: app.metricsPort }) } });
} catch (error) {
  const { name, message } = error instanceof Error ? error : new Error(String(error));
  reply({ failed: { name, message } });
}
