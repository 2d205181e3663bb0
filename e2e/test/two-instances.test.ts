import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { api, freePort, startInstance, stopInstance, wallet, type Instance } from './instance.js';

describe('two instances side by side, as PORT=8081 CTK_DATA_DIR=.data2 npm run up starts the second', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ctk-e2e-two-'));
  const running: Instance[] = [];
  afterAll(async () => {
    for (const instance of running.reverse()) await stopInstance(instance);
    rmSync(dir, { recursive: true, force: true });
  });

  it('start on one local chain without a port clash, each paymail document points at its own port, and the wallet pays the second', async () => {
    const chainPort = await freePort();
    const first = await startInstance({ port: await freePort(), dataDir: join(dir, 'first'), chainPort });
    running.push(first);
    const second = await startInstance({ port: await freePort(), dataDir: join(dir, 'second'), chainPort });
    running.push(second);
    expect(second.output.join('')).toContain('started by another instance');

    for (const instance of [first, second]) {
      const document = await api(instance.base, 'GET', '/.well-known/bsvalias');
      expect(document.status).toBe(200);
      const urls = Object.values(document.body.capabilities as Record<string, unknown>).filter((v): v is string => typeof v === 'string');
      expect(urls.length).toBeGreaterThan(3);
      for (const url of urls) expect(url.startsWith(`${instance.base}/`)).toBe(true);
    }

    const merchant = await wallet(chainPort, join(dir, 'merchant.json'), 'create');
    const onboarded = await api(second.base, 'POST', '/api/v1/onboard', undefined, {
      name: 'Second Street Cafe',
      paymail_alias: 'cafe',
      receiving_address: merchant.address,
      identity_public_key: merchant.public_key,
    });
    expect(onboarded.status).toBe(201);
    const customer = join(dir, 'customer.json');
    await wallet(chainPort, customer, 'create');
    await wallet(chainPort, customer, 'faucet', '100000');
    const paid = await wallet(chainPort, customer, 'pay', `cafe@${new URL(second.base).host}`, '--amount', '1500');
    expect(paid.txid).toMatch(/^[0-9a-f]{64}$/);

    const { key } = onboarded.body.api_key as { key: string };
    // The payment event travels from p2p's outbox to books: give it a moment.
    let entries: Array<{ txid: string; satoshis: number }> = [];
    for (let tries = 0; tries < 50 && entries.length === 0; tries++) {
      const ledger = await api(second.base, 'GET', '/api/v1/orgs/second-street-cafe/ledger', key);
      expect(ledger.status).toBe(200);
      entries = ledger.body.data;
      if (entries.length === 0) await new Promise((later) => setTimeout(later, 100));
    }
    expect(entries.map((entry) => [entry.txid, entry.satoshis])).toEqual([[paid.txid, 1500]]);
    expect((await wallet(chainPort, join(dir, 'merchant.json'), 'balance')).satoshis).toBe(1500);
  });
});
