// The example as its README runs it: `node src/server.mjs` with the gate's environment, here in front of
// @ctk/paygate's fake gate (the contract's /check and published document), paid by the package's client.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { LockingScript, MerklePath, P2PKH, PrivateKey, Transaction } from '@bsv/sdk';
import { createPaidFetch } from '@ctk/paygate/client';
import { startFakeGate } from '@ctk/paygate/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const SERVER = fileURLToPath(new URL('../src/server.mjs', import.meta.url));
let gate;
let child;
let base;

beforeAll(async () => {
  gate = await startFakeGate({
    resources: [
      { method: 'GET', path: '/weather/*', price_satoshis: 1, grant: { kind: 'calls', calls: 10 }, description: 'Weather by city' },
    ],
  });
  child = spawn(process.execPath, [SERVER], {
    env: { PATH: process.env.PATH, CTK_GATEWAY: gate.url, PAYGATE_KEY: gate.key, PAYGATE_ACCOUNT: gate.account, PAID_API_PORT: '0' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  base = await new Promise((resolve, reject) => {
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
      const match = /Paid API on (http:\/\/\S+):/.exec(output);
      if (match) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`the server exited with ${code}: ${output}`)));
  });
});
afterAll(async () => {
  child?.kill('SIGTERM');
  await gate?.close();
});

/** A wallet's part: a signed transaction paying the output asked for, from a coin of a made-up mined parent. */
async function pay({ lockingScript, satoshis }) {
  const key = PrivateKey.fromRandom();
  const parent = new Transaction(1, [], [{ lockingScript: new P2PKH().lock(key.toPublicKey().toHash()), satoshis: 10_000 }]);
  parent.merklePath = MerklePath.fromCoinbaseTxidAndHeight(parent.id('hex'), 1);
  const tx = new Transaction();
  tx.addInput({ sourceTransaction: parent, sourceOutputIndex: 0, unlockingScriptTemplate: new P2PKH().unlock(key) });
  tx.addOutput({ lockingScript: LockingScript.fromHex(lockingScript), satoshis });
  tx.addOutput({ lockingScript: new P2PKH().lock(key.toPublicKey().toHash()), change: true });
  await tx.fee(1);
  await tx.sign();
  return { beef: tx.toBEEF(), vout: 0, txid: tx.id('hex'), sender: key.toPublicKey().toString() };
}

describe('the paid API example', () => {
  it('answers the free route without the gate and the priced one 402', async () => {
    expect(await (await fetch(`${base}/health`)).json()).toEqual({ ok: true });
    expect(gate.requests.check).toBe(0);
    const bare = await fetch(`${base}/weather/lisbon`);
    expect(bare.status).toBe(402);
    expect(bare.headers.get('x-bsv-sats')).toBe('1');
    expect(await bare.json()).toMatchObject({ resource: { url: `${base}/weather/lisbon`, description: 'Weather by city' } });
  });

  it('serves a paying client, which pays once and then uses its credential', async () => {
    let payments = 0;
    const paidFetch = createPaidFetch({ pay: (request) => (payments++, pay(request)), maxSatoshis: 10 });
    const lisbon = await paidFetch(`${base}/weather/lisbon`);
    expect(lisbon.status).toBe(200);
    expect(await lisbon.json()).toMatchObject({ city: 'lisbon', forecast: expect.any(String) });
    const checks = gate.requests.check;
    const porto = await paidFetch(`${base}/weather/porto`);
    expect(await porto.json()).toMatchObject({ city: 'porto' });
    expect({ payments, spent: paidFetch.spent, checks: gate.requests.check }).toEqual({ payments: 1, spent: 1, checks });
  });
});
