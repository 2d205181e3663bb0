import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import { linkThread } from '../grpc/in-process.js';
import { linkThreadMetrics } from '../metrics/thread-metrics.js';
import type { RunningService } from './start-service.js';

/** What the app's thread is given (service-thread-main.ts). */
export type ServiceThreadData = {
  /** The URL of the app's module (`apps/<app>/dist/app.js`): its `configSchema` and `service`. */
  module: string;
  /** The variables its configuration is read from. */
  env: Record<string, string | undefined>;
  /** The name the process's traces go under, when the process names them (the embedded default's). */
  tracingName?: string;
  /** This thread's end of the link (in-process gRPC and metrics). */
  link: MessagePort;
};
export type ServiceThreadReply =
  { started: { port: number; metricsPort?: number } } | { failed: { name: string; message: string } } | { closed: true };

/** The thread's code: dist's, also when this file runs from its TypeScript source (see pglite-client.ts). */
const THREAD_URL = new URL(
  import.meta.url.endsWith('.ts') ? '../../dist/service/service-thread-main.js' : './service-thread-main.js',
  import.meta.url,
);

/**
 * Starts an app through the one bootstrap (startService) on a worker thread of its own (decision 0059), linked
 * with this thread: a unary gRPC call between the two crosses as bytes on a MessagePort, run by the server's own
 * thread as a call of its own (decision 0047), and a metrics scrape on either reads both registries. The app
 * gets no in-process event transport (the gateway needs none). It answers when the app serves, or rejects with
 * the error its start failed with; `close` stops it as `startService`'s close does, then ends the thread. An
 * error the thread does not handle later ends the process, as it would in one thread.
 */
export async function startServiceThread(options: Omit<ServiceThreadData, 'link'>): Promise<RunningService> {
  const { port1, port2 } = new MessageChannel();
  linkThread(port1);
  linkThreadMetrics(port1);
  const worker = new Worker(THREAD_URL, { workerData: { ...options, link: port2 } satisfies ServiceThreadData, transferList: [port2] });
  const replies = (): Promise<ServiceThreadReply> =>
    new Promise((reply, fail) => {
      const failed = (error: Error) => fail(error);
      const exited = (code: number) => fail(new Error(`the thread of ${options.module} stopped (exit code ${code})`));
      worker.once('error', failed).once('exit', exited);
      worker.once('message', (message: ServiceThreadReply) => {
        worker.off('error', failed).off('exit', exited);
        reply(message);
      });
    });
  const start = await replies().catch(async (error: unknown) => {
    port1.close();
    await worker.terminate();
    throw error;
  });
  if (!('started' in start)) {
    port1.close();
    await worker.terminate();
    const failed = 'failed' in start ? start.failed : { name: 'Error', message: 'the thread answered out of turn' };
    throw Object.assign(new Error(failed.message), { name: failed.name });
  }
  return {
    ...start.started,
    async close() {
      const closed = replies();
      worker.postMessage('close');
      await closed.catch(() => undefined);
      port1.close();
      await worker.terminate();
    },
  };
}
