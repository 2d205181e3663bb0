import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGrpcClient } from '../src/grpc/client.js';
import { linkThread } from '../src/grpc/in-process.js';
import { linkThreadMetrics, scrapedMetrics } from '../src/metrics/thread-metrics.js';
import { openServiceThread } from '../src/service/service-thread.js';
// @ts-expect-error: a JavaScript fixture (a worker thread loads JavaScript alone)
import { EchoDefinition } from './fixtures/grpc-thread.mjs';

const SERVING = 1;

/** A thread serving test.Echo, linked with this one (decision 0059); resolves once this thread knows its server. */
async function startEchoThread(): Promise<{ worker: Worker; port: MessagePort; grpcPort: number; next(what: string): Promise<void> }> {
  const { port1, port2 } = new MessageChannel();
  linkThread(port1);
  linkThreadMetrics(port1);
  const next = (what: string) =>
    new Promise<void>((resolve) => {
      const seen = (message: { test?: string }) => {
        if (message.test !== what) return;
        port1.off('message', seen);
        resolve();
      };
      port1.on('message', seen);
    });
  const serving = new Promise<number>((resolve) =>
    port1.on('message', (message: { test?: string; port?: number }) => message.test === 'serving' && resolve(message.port!)),
  );
  const worker = new Worker(new URL('./fixtures/grpc-thread.mjs', import.meta.url), { workerData: { link: port2 }, transferList: [port2] });
  return { worker, port: port1, grpcPort: await serving, next };
}

describe('a unary call to a server of another thread of this process (decision 0059)', () => {
  let echo: Awaited<ReturnType<typeof startEchoThread>>;
  let client: ReturnType<typeof createGrpcClient<typeof EchoDefinition>>;
  beforeAll(async () => {
    echo = await startEchoThread();
    client = createGrpcClient(EchoDefinition, `127.0.0.1:${echo.grpcPort}`, { timeoutMs: 2_000 });
  });
  afterAll(async () => {
    client?.close();
    await echo?.worker.terminate();
  });

  it('runs there as a call of that thread, without the network, with the caller metadata', async () => {
    await expect(client.check({ service: 'where' })).resolves.toEqual({ status: SERVING });
    await expect(client.check({ service: 'request-id:req-7' }, { requestId: 'req-7' })).resolves.toEqual({ status: SERVING });
  });

  it('delivers an AppError thrown there with its code, message and details', async () => {
    await expect(client.check({ service: 'refuse' })).rejects.toMatchObject({
      code: 'not_found',
      message: 'Le café « Crème » n’existe pas',
      details: { field: 'service' },
    });
  });

  it('fails a call that is not answered by its deadline as a timeout', async () => {
    const started = Date.now();
    await expect(client.check({ service: 'slow:1000' }, { timeoutMs: 200 })).rejects.toMatchObject({ code: 'timeout' });
    expect(Date.now() - started).toBeLessThan(900);
  });

  it("reads the other thread's metrics in a scrape here, under its own app label", async () => {
    await client.check({ service: 'counted' });
    expect(await scrapedMetrics()).toMatch(/^ctk_test_thread_calls_total\{app="books"\} [1-9]\d*$/m);
  });

  it('stops calling a server the other thread shut down: the call goes to the network and is refused', async () => {
    const shut = echo.next('shut down');
    echo.worker.postMessage('shut down');
    await shut;
    await expect(client.check({ service: 'where' })).rejects.toMatchObject({ code: 'unavailable' });
  });
});

describe('a thread that ends while a call waits on it', () => {
  it('fails the call as unavailable at once, not at its deadline', async () => {
    const echo = await startEchoThread();
    const client = createGrpcClient(EchoDefinition, `127.0.0.1:${echo.grpcPort}`, { timeoutMs: 30_000 });
    const started = Date.now();
    const failed = expect(client.check({ service: 'slow:20000' })).rejects.toMatchObject({ code: 'unavailable' });
    await new Promise((resolve) => setTimeout(resolve, 100));
    await echo.worker.terminate();
    await failed;
    expect(Date.now() - started).toBeLessThan(5_000);
    client.close();
  });
});

describe('openServiceThread', () => {
  const module = new URL('./fixtures/thread-app.mjs', import.meta.url).href;

  it('starts an app through the bootstrap on a thread of its own, serving until it is closed', async () => {
    const app = await openServiceThread({ module }).start({ GREETING: 'bonjour' });
    const url = `http://127.0.0.1:${app.port}/`;
    expect(await (await fetch(url)).text()).toBe('bonjour');
    await app.close();
    await expect(fetch(url)).rejects.toThrow();
  });

  it("rejects with the app's own start error, naming what is wrong", async () => {
    await expect(openServiceThread({ module }).start({})).rejects.toThrow(/Invalid configuration:\n {2}GREETING: /);
  });
});
