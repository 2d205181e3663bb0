import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import type { DatabaseOptions } from '../db/open-database.js';
import { databaseThreadPort } from '../db/pglite-client.js';
import { linkThread } from '../grpc/in-process.js';
import { linkThreadMetrics } from '../metrics/thread-metrics.js';
import type { RunningService } from './start-service.js';

/** What the app's thread is given (service-thread-main.ts). */
export type ServiceThreadData = {
  /** The URL of the app's module (`apps/<app>/dist/app.js`): its `configSchema` and `service`. */
  module: string;
  /**
   * The app's database, opened while the thread waits for its configuration (decision 0058): an embedded one on
   * this process's databases' thread, through a port of the thread's own (`databases`).
   */
  database?: DatabaseOptions;
  databases?: MessagePort;
  /** The name the process's traces go under, when the process names them (the embedded default's). */
  tracingName?: string;
  /** This thread's end of the link (in-process gRPC and metrics). */
  link: MessagePort;
};
/** What the thread is asked: to start the app with the variables its configuration is read from, then to close it. */
export type ServiceThreadRequest = { start: Record<string, string | undefined> } | { close: true };
export type ServiceThreadReply =
  { started: { port: number; metricsPort?: number } } | { failed: { name: string; message: string } } | { closed: true };

/** The thread's code: dist's, also when this file runs from its TypeScript source (see pglite-client.ts). */
const THREAD_URL = new URL(
  import.meta.url.endsWith('.ts') ? '../../dist/service/service-thread-main.js' : './service-thread-main.js',
  import.meta.url,
);

export type ServiceThread = {
  /**
   * Starts the app through the one bootstrap (startService) with `env`: answers when it serves, or rejects with
   * the error its start (or its module's load) failed with, and the thread ends.
   */
  start(env: Record<string, string | undefined>): Promise<RunningService>;
};

/**
 * A worker thread of its own for an app (decision 0059), linked with this thread: a unary gRPC call between the
 * two crosses as bytes on a MessagePort, run by the server's own thread as a call of its own (decision 0047), and
 * a metrics scrape on either reads both registries. The thread loads the app's module and opens its database
 * (`database`; an embedded one on this process's databases' thread) at once, while this one does other work (the embedded default starts the services meanwhile), and holds the
 * process open only once started. The app gets no in-process event transport (the gateway needs none). Its
 * `close` stops the app as `startService`'s close does, then ends the thread; an error the thread does not handle
 * later ends the process, as it would in one thread.
 */
export function openServiceThread(
  options: Omit<ServiceThreadData, 'link' | 'databases'> & {
    /** The thread's code when not this package's own (service-thread-main.js): the embedded default's bundle of it. */
    threadUrl?: string | URL;
  },
): ServiceThread {
  const { threadUrl = THREAD_URL, ...data } = options;
  const { port1, port2 } = new MessageChannel();
  linkThread(port1);
  linkThreadMetrics(port1);
  const databases = data.database && !data.database.databaseUrl ? databaseThreadPort() : undefined;
  const workerData: ServiceThreadData = { ...data, link: port2, ...(databases ? { databases } : {}) };
  const worker = new Worker(threadUrl, { workerData, transferList: databases ? [port2, databases] : [port2] });
  worker.unref();
  const ask = (request: ServiceThreadRequest): Promise<ServiceThreadReply> =>
    new Promise((reply, fail) => {
      const failed = (error: Error) => fail(error);
      const exited = (code: number) => fail(new Error(`the thread of ${options.module} stopped (exit code ${code})`));
      worker.once('error', failed).once('exit', exited);
      worker.once('message', (message: ServiceThreadReply) => {
        worker.off('error', failed).off('exit', exited);
        reply(message);
      });
      worker.postMessage(request);
    });
  const end = async () => {
    port1.close();
    await worker.terminate();
  };
  return {
    async start(env) {
      const answer = await ask({ start: env }).catch(async (error: unknown) => {
        await end();
        throw error;
      });
      if (!('started' in answer)) {
        await end();
        const failed = 'failed' in answer ? answer.failed : { name: 'Error', message: 'the thread answered out of turn' };
        throw Object.assign(new Error(failed.message), { name: failed.name });
      }
      worker.ref();
      return {
        ...answer.started,
        async close() {
          await ask({ close: true }).catch(() => undefined);
          await end();
        },
      };
    },
  };
}
