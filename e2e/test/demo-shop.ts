import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { freePort, ROOT } from './instance.js';

export type Shop = { process: ChildProcess; url: string };

/** `node examples/demo-shop/serve.mjs`, as the README runs it, on its own origin (127.0.0.1, another port), with `env` (the gateway, the merchant, or a pasted snippet). */
export async function startShop(env: Record<string, string>): Promise<Shop> {
  const port = await freePort();
  const child = spawn(process.execPath, [join(ROOT, 'examples/demo-shop/serve.mjs')], {
    cwd: ROOT,
    env: { ...process.env, ...env, DEMO_PORT: String(port), DEMO_HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  await new Promise<void>((ready, fail) => {
    const onData = (chunk: Buffer) => {
      output.push(chunk.toString());
      if (chunk.toString().includes('Demo shop at')) ready();
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => fail(new Error(`the demo shop exited with ${code}:\n${output.join('')}`)));
  });
  return { process: child, url: `http://127.0.0.1:${port}/` };
}

export async function stopShop(shop: Shop | undefined) {
  if (!shop || shop.process.exitCode !== null) return;
  const exited = new Promise((done) => shop.process.once('exit', done));
  shop.process.kill('SIGTERM');
  await exited;
}
