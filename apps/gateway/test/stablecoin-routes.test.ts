import { P2PKH, PrivateKey, Transaction } from '@bsv/sdk';
import { cosignOwnerUnlock, createChainClient, tokenTransferOutput } from '@ctk/chain';
import { requestFaucet, requestStablecoinFaucet } from '@ctk/chain/local';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, bearer, onboard, type Onboarded } from './harness.js';
import { startOrderStack } from './order-harness.js';
import { uniqueName } from './support.js';

type Stack = Awaited<ReturnType<typeof startOrderStack>>;

/** A customer's transfer of `units` of the local chain's stablecoin to `to`, approved by its cosigner (hex, EF). */
async function stablecoinTransfer(chainUrl: string, to: string, units: bigint): Promise<{ hex: string; txid: string }> {
  const chain = createChainClient({ network: 'local', localUrl: chainUrl, retries: 0 });
  const { tokenId, cosignerPublicKey } = await chain.stablecoin();
  const key = PrivateKey.fromRandom();
  const address = key.toAddress('testnet');
  const usdx = await requestStablecoinFaucet(chainUrl, address, units);
  const fees = await requestFaucet(chainUrl, address, 10_000);
  const tx = new Transaction();
  tx.addInput({
    sourceTransaction: Transaction.fromHex(usdx.rawtx),
    sourceOutputIndex: usdx.vout,
    unlockingScriptTemplate: cosignOwnerUnlock(key),
  });
  tx.addInput({
    sourceTransaction: Transaction.fromHex(fees.raw_tx),
    sourceOutputIndex: fees.vout,
    unlockingScriptTemplate: new P2PKH().unlock(key),
  });
  tx.addOutput(tokenTransferOutput({ address: to, tokenId, amount: units, cosignerPublicKey }));
  tx.addOutput({ satoshis: 10_000 + 1 - 1 - 400, lockingScript: new P2PKH().lock(address) });
  await tx.sign();
  const cosigned = await chain.cosign(tx);
  return { hex: cosigned.toHexEF(), txid: cosigned.id('hex') };
}

describe('stablecoin payment intents through the gateway', () => {
  let stack: Stack;
  let owner: Onboarded;
  let staff: { key: string };
  beforeAll(async () => {
    stack = await startOrderStack({ commerce: true });
    owner = await stack.walletOrg('Stablecoin Cafe', { jurisdiction: 'US-CA' });
    staff = await addMember(stack.gateway, owner, 'staff');
  }, 120_000);
  afterAll(async () => stack?.close());

  const call = (method: 'GET' | 'POST', url: string, key?: string, payload?: unknown) =>
    stack.gateway.app.inject({
      method,
      url,
      headers: key ? bearer(key) : {},
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  const create = (key: string | undefined, body: Record<string, unknown>) => call('POST', '/api/v1/stablecoin/intents', key, body);

  it('opens an intent for staff, answers it to anyone holding its id, and settles it with a cosigned transfer', async () => {
    const created = await create(staff.key, { org_handle: owner.handle, amount_cents: 1250, description: 'Catering deposit' });
    expect(created.statusCode).toBe(201);
    const intent = created.json();
    expect(intent).toMatchObject({
      id: expect.stringMatching(/^spi_[A-Za-z0-9_-]{32}$/),
      status: 'requires_payment',
      org_handle: owner.handle,
      description: 'Catering deposit',
      currency: 'USD',
      transfers: [],
      succeeded_at: null,
      payment: { symbol: 'USDX', decimals: 5, token_amount: expect.stringMatching(/^\d+$/), address: expect.any(String) },
    });
    expect(BigInt(intent.payment.token_amount)).toBe(BigInt(intent.amount_cents) * 1000n);

    const read = await call('GET', `/api/v1/stablecoin/intents/${intent.id}`);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual(intent);

    // Its address as a QR code, for the customer's wallet to scan off the counter screen or the Buy button's dialog.
    const qr = await call('GET', `/api/v1/stablecoin/intents/${intent.id}/qr`);
    expect([qr.statusCode, qr.headers['content-type']]).toEqual([200, 'image/svg+xml']);
    expect(qr.body).toMatch(/^<svg /);
    const png = await call('GET', `/api/v1/stablecoin/intents/${intent.id}/qr?format=png`);
    expect([png.statusCode, png.headers['content-type'], png.rawPayload.subarray(1, 4).toString()]).toEqual([200, 'image/png', 'PNG']);
    expect((await call('GET', `/api/v1/stablecoin/intents/spi_${'Q'.repeat(32)}/qr`)).statusCode).toBe(404);
    expect((await call('GET', `/api/v1/stablecoin/intents/${intent.id}/qr?format=gif`)).statusCode).toBe(422);

    const transfer = await stablecoinTransfer(stack.chainUrl, intent.payment.address, BigInt(intent.payment.token_amount));
    const settled = await call('POST', `/api/v1/stablecoin/intents/${intent.id}/settle`, undefined, { transaction: transfer.hex });
    expect(settled.statusCode).toBe(200);
    expect(settled.json()).toMatchObject({
      status: 'succeeded',
      transfers: [{ txid: transfer.txid, vout: 0, token_amount: intent.payment.token_amount, outcome: 'accepted' }],
    });
    const again = await call('POST', `/api/v1/stablecoin/intents/${intent.id}/settle`, undefined, { txid: transfer.txid });
    expect(again.json()).toEqual(settled.json());
  });

  it('needs the shop staff for an amount: 401 without a key, 403 for another shop, 404 for a shop that does not exist', async () => {
    expect((await create(undefined, { org_handle: owner.handle, amount_cents: 500 })).json().error).toMatchObject({
      code: 'unauthenticated',
    });
    const stranger = await onboard(stack.gateway, uniqueName('Elsewhere'));
    expect((await create(stranger.key, { org_handle: owner.handle, amount_cents: 500 })).json().error).toMatchObject({ code: 'forbidden' });
    const missing = await create(owner.key, { org_handle: 'no-such-shop-anywhere', amount_cents: 500 });
    expect(missing.statusCode).toBe(404);
  });

  it('refuses bad input with a 4xx naming the field, never a 500', async () => {
    const refusals: Array<Record<string, unknown>> = [
      { org_handle: owner.handle, amount_cents: 12.5 },
      { org_handle: owner.handle, amount_cents: 0 },
      { org_handle: owner.handle, amount_cents: '500' },
      { org_handle: owner.handle, amount_cents: 500, description: 'Deposit\u0000' },
      { org_handle: owner.handle, amount_cents: 500, description: 'Deposit\u0007' },
      { org_handle: owner.handle, amount_cents: 500, description: 'x'.repeat(201) },
      { org_handle: owner.handle },
      { org_handle: owner.handle, amount_cents: 500, order_number: 'A-1' },
      { org_handle: owner.handle, checkout: 'cko_short' },
      { org_handle: owner.handle, amount_cents: 500, org: { id: owner.orgId } },
    ];
    for (const body of refusals) {
      const answer = await create(owner.key, body);
      expect([answer.statusCode >= 400 && answer.statusCode < 500, JSON.stringify(body)]).toEqual([true, JSON.stringify(body)]);
      expect(answer.json().error.code).toMatch(/^(bad_request|validation_failed)$/);
    }
    for (const id of ['spi_x', 'spi_' + 'A'.repeat(31) + '\u0000', 'spi_' + 'B'.repeat(32)]) {
      const answer = await call('GET', `/api/v1/stablecoin/intents/${encodeURIComponent(id)}`);
      expect(answer.statusCode, id).toBeGreaterThanOrEqual(400);
      expect(answer.statusCode, id).toBeLessThan(500);
    }
    const intent = (await create(owner.key, { org_handle: owner.handle, amount_cents: 300 })).json();
    for (const body of [
      {},
      { txid: 'zz' },
      { txid: 'a'.repeat(64), transaction: '00' },
      { transaction: 'not hex' },
      { transaction: '0011' },
    ]) {
      const answer = await call('POST', `/api/v1/stablecoin/intents/${intent.id}/settle`, undefined, body);
      expect([answer.statusCode >= 400 && answer.statusCode < 500, JSON.stringify(body)]).toEqual([true, JSON.stringify(body)]);
    }
    const unknown = await call('POST', `/api/v1/stablecoin/intents/${intent.id}/settle`, undefined, { txid: 'c'.repeat(64) });
    expect(unknown.statusCode).toBe(404);
  });
});
