// The thread of an app opened by openServiceThread (service-thread.ts): it links with the thread that opened it,
// loads the app's module and opens its database at once, starts the app through the one bootstrap when given its
// configuration, answers where it serves, and closes it when asked.
import { parentPort, workerData } from 'node:worker_threads';
import { loadConfig } from '../config.js';
import { prepareDatabase } from '../db/open-database.js';
import { useDatabaseThreads } from '../db/pglite-client.js';
import { linkThread } from '../grpc/in-process.js';
import { createLogger } from '../logger.js';
import { linkThreadMetrics } from '../metrics/thread-metrics.js';
import { startTracing } from '../tracing/tracing.js';
import type { ServiceThreadData, ServiceThreadReply, ServiceThreadRequest } from './service-thread.js';
import { startService, type RunningService } from './start-service.js';

type App = { configSchema: never; service: Parameters<typeof startService>[0] };

const { module, database, databases, tracingName, link } = workerData as ServiceThreadData;
const reply = (message: ServiceThreadReply) => parentPort!.postMessage(message);
linkThread(link);
linkThreadMetrics(link);
if (databases) useDatabaseThreads([databases]);
if (database) prepareDatabase(database);
const loading = (async () => {
  if (tracingName) await startTracing(tracingName);
  return (await import(module)) as App;
})();
loading.catch(() => undefined);
let running: RunningService | undefined;

parentPort!.on('message', (request: ServiceThreadRequest) => {
  if ('start' in request) void start(request.start);
  else void (running?.close() ?? Promise.resolve()).finally(() => reply({ closed: true }));
});

async function start(env: Record<string, string | undefined>): Promise<void> {
  try {
    const { configSchema, service } = await loading;
    const config = loadConfig(configSchema, env) as Parameters<typeof startService>[1];
    running = await startService(service, config, { logger: createLogger(service.name, config.LOG_LEVEL as never) });
    reply({ started: { port: running.port, ...(running.metricsPort === undefined ? {} : { metricsPort: running.metricsPort }) } });
  } catch (error) {
    const { name, message } = error instanceof Error ? error : new Error(String(error));
    reply({ failed: { name, message } });
  }
}
