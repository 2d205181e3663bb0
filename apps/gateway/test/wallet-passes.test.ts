import { execFileSync } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PrivateKey } from '@bsv/sdk';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { jwtVerify } from 'jose';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, bearer, onboard, type Onboarded } from './harness.js';
import { startOrderStack } from './order-harness.js';
import { expectError, uniqueName } from './support.js';

let stack: Awaited<ReturnType<typeof startOrderStack>>;
beforeAll(async () => {
  stack = await startOrderStack();
}, 60_000);
afterAll(() => stack?.close());

const DEVELOPMENT_CLIENT_EMAIL = 'wallet-passes@development.commerce-toolkit.invalid';
const inject = (options: InjectOptions) => stack.gateway.app.inject(options);
const send = (method: 'GET' | 'POST' | 'PUT', url: string, key?: string, payload?: object) =>
  inject({ method, url, ...(key ? { headers: bearer(key) } : {}), ...(payload ? { payload } : {}) });
const apple = (cardId: string, key?: string) => send('GET', `/api/v1/passes/coffee/${cardId}/apple`, key);
const google = (cardId: string, key?: string) => send('GET', `/api/v1/passes/coffee/${cardId}/google`, key);

/** A shop with a wallet and a program: a free coffee for 8 visits. */
async function cafe(label: string): Promise<Onboarded> {
  const org = await stack.walletOrg(label);
  const program = { stamp_rule: 'visit', stamps_for_reward: 8, reward: 'A free coffee' };
  expect((await send('PUT', `/api/v1/orgs/${org.handle}/loyalty-program`, org.key, program)).statusCode).toBe(200);
  return org;
}

/** Staff sell a flat white on the card, and a customer pays it by BIP270: the paid order stamps the card. */
async function stampedVisit(org: Onboarded, cardId: string) {
  const created = await send('POST', '/api/pos/orders', org.key, {
    org_handle: org.handle,
    lines: [{ name: 'Flat white', quantity: 1, unit_price_minor: 450 }],
    loyalty_card_id: cardId,
  });
  expect(created.statusCode).toBe(201);
  const request = (await send('GET', `/api/pos/orders/${created.json().order_number}/payment-request`)).json();
  const tx = await stack.paying(
    request.outputs.map((output: { script: string; amount: number }) => ({ script: output.script, satoshis: output.amount })),
  );
  const ack = await send('POST', new URL(request.paymentUrl).pathname, undefined, {
    transaction: tx.toHex(),
    merchantData: request.merchantData,
  });
  expect(ack.statusCode).toBe(200);
}

async function unzip(pkpass: Buffer): Promise<Record<string, Buffer>> {
  const zip = await JSZip.loadAsync(pkpass);
  const files: Record<string, Buffer> = {};
  for (const name of Object.keys(zip.files)) files[name] = await zip.file(name)!.async('nodebuffer');
  return files;
}

const hasOpenssl = (() => {
  try {
    execFileSync('openssl', ['version']);
    return true;
  } catch {
    return false;
  }
})();
const folders: string[] = [];
afterAll(() => folders.forEach((folder) => rmSync(folder, { recursive: true, force: true })));

/** `openssl smime -verify` of the detached signature over the manifest (-noverify: the development chain is no trusted one). */
function opensslVerifies(signature: Buffer, manifest: Buffer): boolean {
  const folder = mkdtempSync(join(tmpdir(), 'pkpass-'));
  folders.push(folder);
  writeFileSync(join(folder, 'signature'), signature);
  writeFileSync(join(folder, 'manifest.json'), manifest);
  try {
    const args = ['smime', '-verify', '-binary', '-inform', 'DER', '-in', 'signature', '-content', 'manifest.json', '-noverify'];
    execFileSync('openssl', args, { cwd: folder, stdio: 'pipe' });
    return true;
  } catch {
    return false;
  }
}

/** What an Apple pass shows, after checking it is a signed .pkpass answered as one. */
async function applePass(response: LightMyRequestResponse) {
  expect(response.statusCode, response.body).toBe(200);
  expect(response.headers['content-type']).toBe('application/vnd.apple.pkpass');
  expect(response.headers['content-disposition']).toMatch(/^attachment; filename="[a-z0-9-]+\.pkpass"$/);
  expect(response.headers['cache-control']).toBe('no-store');
  const files = await unzip(response.rawPayload);
  expect(Object.keys(files)).toEqual(expect.arrayContaining(['pass.json', 'manifest.json', 'signature']));
  const manifest = JSON.parse(files['manifest.json']!.toString('utf8')) as Record<string, string>;
  for (const [name, sha1] of Object.entries(manifest)) expect(createHash('sha1').update(files[name]!).digest('hex')).toBe(sha1);
  expect(Object.keys(manifest)).toContain('pass.json');
  // pos's tests check the signature in full (apps/pos/test/loyalty-pass.test.ts); here openssl does, where installed (.ci/run installs it).
  if (hasOpenssl) {
    expect(opensslVerifies(files['signature']!, files['manifest.json']!)).toBe(true);
    expect(opensslVerifies(files['signature']!, Buffer.concat([files['manifest.json']!, Buffer.from(' ')]))).toBe(false);
  }
  return JSON.parse(files['pass.json']!.toString('utf8'));
}

/** The loyalty object of a Google save link, after checking its JWT verifies against pos's development key. */
async function googlePass(response: LightMyRequestResponse) {
  expect(response.statusCode, response.body).toBe(200);
  expect(response.headers['cache-control']).toBe('no-store');
  const { save_url: saveUrl, jwt } = response.json();
  expect(Object.keys(response.json()).sort()).toEqual(['jwt', 'save_url']);
  expect(saveUrl).toBe(`https://pay.google.com/gp/v/save/${jwt}`);
  const { payload } = await jwtVerify(jwt, await stack.googlePassKey(), {
    issuer: DEVELOPMENT_CLIENT_EMAIL,
    audience: 'google',
    algorithms: ['RS256'],
  });
  expect(payload.typ).toBe('savetowallet');
  const wallet = payload.payload as { loyaltyClasses: { issuerName: string }[]; loyaltyObjects: Record<string, unknown>[] };
  expect(wallet.loyaltyObjects).toHaveLength(1);
  return { issuerName: wallet.loyaltyClasses[0]!.issuerName, object: wallet.loyaltyObjects[0]! };
}

let blueBottle: Onboarded;
let customer: Onboarded;
let card: { id: string; identifier: string; identifier_last4: string };
beforeAll(async () => {
  blueBottle = await cafe('Blue Bottle Cafe');
  customer = await onboard(stack.gateway, uniqueName('Sam'));
  const joined = await send('POST', '/api/v1/loyalty-cards', customer.key, { org_handle: blueBottle.handle });
  expect(joined.statusCode).toBe(201);
  card = joined.json();
  await stampedVisit(blueBottle, card.id);
}, 60_000);

describe('wallet passes for the holder', () => {
  it("answers an Apple .pkpass that shows the card's stamps and reward, with the identifier as its QR, signed", async () => {
    const pass = await applePass(await apple(card.id, customer.key));
    expect(pass).toMatchObject({
      serialNumber: card.id,
      organizationName: expect.stringMatching(/^Blue Bottle Cafe/),
      sharingProhibited: true,
      barcodes: [{ format: 'PKBarcodeFormatQR', message: card.identifier, altText: card.identifier_last4 }],
    });
    expect(pass.storeCard.primaryFields).toEqual([{ key: 'stamps', label: 'Stamps', value: '1 of 8' }]);
    expect(pass.storeCard.secondaryFields[0].value).toBe('A free coffee');
  });

  it('answers a Google save link whose JWT verifies against the development key and carries the card', async () => {
    const { issuerName, object } = await googlePass(await google(card.id, customer.key));
    expect(issuerName).toMatch(/^Blue Bottle Cafe/);
    expect(object).toMatchObject({
      id: expect.stringMatching(new RegExp(`^\\d{19}\\.${card.id}$`)),
      accountId: card.id,
      loyaltyPoints: { label: 'Stamps', balance: { int: 1 } },
      barcode: { type: 'QR_CODE', value: card.identifier, alternateText: card.identifier_last4 },
    });
  });
});

describe('wallet passes for staff and for anyone else', () => {
  it("answers the organisation's staff, whatever their role, the holder's pass", async () => {
    const members = [await addMember(stack.gateway, blueBottle, 'staff'), await addMember(stack.gateway, blueBottle, 'admin')];
    for (const key of [...members.map((member) => member.key), blueBottle.key]) {
      expect((await applePass(await apple(card.id, key))).barcodes[0].message).toBe(card.identifier);
      expect((await googlePass(await google(card.id, key))).object).toMatchObject({ accountId: card.id });
    }
  });

  it("answers 404 to another shop's staff and another customer, as for an unknown card or another kind's; 401 without a key", async () => {
    const bakery = await cafe('Corner Bakery');
    const bakeryStaff = await addMember(stack.gateway, bakery, 'staff');
    const stranger = await onboard(stack.gateway, uniqueName('Stranger'));
    const prepaid = await send('POST', '/api/pos/prepaid-cards', blueBottle.key, { org_handle: blueBottle.handle, amount_minor: 2500 });
    const posCard = await send('POST', '/api/pos/cards', blueBottle.key, {
      org_handle: blueBottle.handle,
      holder: { address: PrivateKey.fromRandom().toAddress('testnet') },
    });
    const notFound = [
      ...[bakery.key, bakeryStaff.key, stranger.key].map((key) => [card.id, key]),
      ...[randomUUID(), prepaid.json().card.id, posCard.json().id].map((id) => [id, customer.key]),
      [randomUUID(), blueBottle.key],
    ] as const;
    const messages = new Set<string>();
    for (const [id, key] of notFound) {
      for (const pass of [apple, google]) {
        const response = await pass(id, key);
        expectError(response, 404, 'not_found');
        expect(response.body).not.toContain(card.identifier);
        messages.add(response.json().error.message);
      }
    }
    // One answer, whether the card exists or not.
    expect(messages.size).toBe(1);
    expectError(await apple(card.id), 401, 'unauthenticated');
    expectError(await google(card.id), 401, 'unauthenticated');
  });

  it('refuses a card id that is no UUID, or has control characters, with 422', async () => {
    for (const bad of ['not-a-card', `${card.id}%07`, `${card.id}%E2%80%AE`, `${card.id.slice(0, 35)}%0A`, 'x'.repeat(200)]) {
      for (const platform of ['apple', 'google']) {
        const response = await send('GET', `/api/v1/passes/coffee/${bad}/${platform}`, customer.key);
        expect({ bad, platform, status: response.statusCode, code: response.json().error?.code }).toEqual({
          bad,
          platform,
          status: 422,
          code: 'validation_failed',
        });
      }
    }
    expectError(await send('GET', `/api/v1/passes/coffee/${card.id}%00/apple`, customer.key), 422, 'validation_failed');
  });

  it('gives the former holder nothing once staff passed the card on, and staff the pass of its new identifier', async () => {
    const customerCard = (
      await send('POST', '/api/v1/loyalty-cards', (await onboard(stack.gateway, uniqueName('Alex'))).key, {
        org_handle: blueBottle.handle,
      })
    ).json();
    const formerHolder = await onboard(stack.gateway, uniqueName('Former'));
    const joined = await send('POST', '/api/v1/loyalty-cards', formerHolder.key, { org_handle: blueBottle.handle });
    expect((await apple(joined.json().id, formerHolder.key)).statusCode).toBe(200);
    const moved = await send('POST', `/api/pos/loyalty-cards/${joined.json().id}/transfer`, blueBottle.key, {
      org_handle: blueBottle.handle,
      to: { address: PrivateKey.fromRandom().toAddress('testnet') },
    });
    expect(moved.statusCode).toBe(200);
    expectError(await apple(joined.json().id, formerHolder.key), 404, 'not_found');
    expectError(await google(joined.json().id, formerHolder.key), 404, 'not_found');
    expect((await applePass(await apple(joined.json().id, blueBottle.key))).barcodes[0].message).toBe(moved.json().identifier);
    // Another customer's card is theirs alone.
    expectError(await apple(customerCard.id, formerHolder.key), 404, 'not_found');
  });
});
