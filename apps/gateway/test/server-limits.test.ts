import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type Gateway } from './harness.js';
import { SERVICES_DOWN } from './support.js';

describe('a request that never finishes sending its body', () => {
  let gateway: Gateway;
  let port: number;
  beforeAll(async () => {
    gateway = await startTestGateway({ ...SERVICES_DOWN, CTK_REQUEST_TIMEOUT_SECONDS: '1' });
    port = gateway.port;
  });
  afterAll(async () => {
    await gateway?.close();
  });

  it('is answered 408 and its connection closed within the request timeout, not held open for minutes', async () => {
    const started = Date.now();
    const { answer, elapsed } = await new Promise<{ answer: string; elapsed: number }>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => {
        // Says 100 bytes, sends 10, then waits.
        socket.write(
          'POST /api/v1/onboard HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"name": "',
        );
      });
      let answer = '';
      socket.on('data', (chunk) => (answer += chunk.toString()));
      socket.on('close', () => resolve({ answer, elapsed: Date.now() - started }));
      socket.on('error', reject);
      setTimeout(() => {
        socket.destroy();
        reject(new Error(`still open after 10 s: ${answer}`));
      }, 10_000);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    expect(elapsed).toBeLessThan(4000);
  });
});

describe('starting the gateway', () => {
  it('prints no deprecation warning', async () => {
    const warnings: string[] = [];
    const listener = (warning: Error & { code?: string }) => warnings.push(`${warning.code ?? warning.name}: ${warning.message}`);
    process.on('warning', listener);
    const gateway = await startTestGateway(SERVICES_DOWN);
    await gateway.close();
    // Warnings are emitted on the next tick.
    await new Promise((resolve) => setImmediate(resolve));
    process.off('warning', listener);
    expect(warnings.filter((w) => w.startsWith('FSTDEP'))).toEqual([]);
  });
});
