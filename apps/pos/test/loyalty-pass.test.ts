import { randomUUID } from 'node:crypto';
import { PrivateKey } from '@bsv/sdk';
import type { OrgRef } from '@ctk/proto/ctk/common/v1/common';
import type { CardHolder, GetLoyaltyPassRequest, LoyaltyProgram } from '@ctk/proto/ctk/pos/v1/cards';
import { jwtVerify } from 'jose';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEVELOPMENT_PASS_TYPE_ID } from '../src/passes/apple-pass-signer.js';
import { DEVELOPMENT_CLIENT_EMAIL } from '../src/passes/google-wallet-account.js';
import { GOOGLE_SAVE_URL } from '../src/passes/google-save-link.js';
import { verifyDetachedSignature } from './detached-signature.js';
import { failure } from './order-stack.js';
import { newOrg, startTestPos } from './support.js';

let pos: Awaited<ReturnType<typeof startTestPos>>;
beforeAll(async () => {
  pos = await startTestPos();
});
afterAll(() => pos?.close());

const PUBLIC_URL = 'https://pay.example.com';
const coffee = { stampRule: 'visit', amountPerStampMinor: 0n, stampsForReward: 8, reward: 'A free coffee', active: true } as LoyaltyProgram;
const holder = (fields: Partial<CardHolder>): CardHolder => ({ address: '', publicKey: '', userId: '', ...fields });

/** A shop with a program, and a card of it held by a user: the card as issued, with its identifier. */
async function heldCard() {
  const org = newOrg();
  await pos.client.replaceLoyaltyProgram({ org, program: coffee });
  const userId = randomUUID();
  const card = (await pos.client.createLoyaltyCard({ org, holder: holder({ userId }) })).card!;
  return { org, userId, card };
}

const passOf = (org: OrgRef, cardId: string, fields: Partial<GetLoyaltyPassRequest> = {}) =>
  pos.client.getLoyaltyPass({ org, cardId, platform: 'apple', publicUrl: PUBLIC_URL, merchantName: 'Blue Bottle Cafe', ...fields });

async function unzip(pkpass: Uint8Array): Promise<Record<string, Buffer>> {
  const zip = await JSZip.loadAsync(pkpass);
  const files: Record<string, Buffer> = {};
  for (const name of Object.keys(zip.files)) files[name] = await zip.file(name)!.async('nodebuffer');
  return files;
}

describe('GetLoyaltyPass', () => {
  it('answers the holder an Apple .pkpass of the card: its stamps and reward, a QR of its identifier, signed', async () => {
    const { org, userId, card } = await heldCard();
    const pass = await passOf(org, card.id, { holderUserId: userId });
    expect(pass).toMatchObject({ contentType: 'application/vnd.apple.pkpass', saveUrl: '', jwt: '' });
    const files = await unzip(pass.body);
    expect(Object.keys(files)).toEqual(expect.arrayContaining(['pass.json', 'manifest.json', 'signature']));
    const passJson = JSON.parse(files['pass.json']!.toString('utf8'));
    expect(passJson).toMatchObject({
      serialNumber: card.id,
      organizationName: 'Blue Bottle Cafe',
      passTypeIdentifier: DEVELOPMENT_PASS_TYPE_ID,
      sharingProhibited: true,
      barcodes: [{ format: 'PKBarcodeFormatQR', message: card.identifier, altText: card.identifierLast4 }],
    });
    expect(passJson.storeCard.primaryFields).toEqual([{ key: 'stamps', label: 'Stamps', value: '0 of 8' }]);
    expect(passJson.storeCard.secondaryFields[0].value).toBe('A free coffee');
    expect(() => verifyDetachedSignature(files['signature']!, files['manifest.json']!)).not.toThrow();
  });

  it("answers the organisation's staff (no holder named) a Google save link whose JWT verifies and carries the card", async () => {
    const { org, card } = await heldCard();
    const pass = await passOf(org, card.id, { platform: 'google' });
    expect(pass.body).toHaveLength(0);
    expect(pass.saveUrl).toBe(`${GOOGLE_SAVE_URL}${pass.jwt}`);
    const { payload } = await jwtVerify(pass.jwt, await pos.passes.googlePublicKey(), {
      issuer: DEVELOPMENT_CLIENT_EMAIL,
      audience: 'google',
      algorithms: ['RS256'],
    });
    expect(payload).toMatchObject({ typ: 'savetowallet', origins: [PUBLIC_URL] });
    const wallet = payload.payload as { loyaltyClasses: { issuerName: string }[]; loyaltyObjects: object[] };
    expect(wallet.loyaltyClasses[0]!.issuerName).toBe('Blue Bottle Cafe');
    expect(wallet.loyaltyObjects).toEqual([
      expect.objectContaining({
        id: expect.stringMatching(new RegExp(`^\\d{19}\\.${card.id}$`)),
        accountId: card.id,
        loyaltyPoints: { label: 'Stamps', balance: { int: 0 } },
        barcode: { type: 'QR_CODE', value: card.identifier, alternateText: card.identifierLast4 },
      }),
    ]);
  });

  it("shows the card's handle when no merchant name is given", async () => {
    const { org, card } = await heldCard();
    const passJson = JSON.parse((await unzip((await passOf(org, card.id, { merchantName: '' })).body))['pass.json']!.toString());
    expect(passJson.organizationName).toBe(org.handle);
  });

  it("is not found for another organisation's card, another user, a former holder after a transfer, or an id no card has", async () => {
    const { org, userId, card } = await heldCard();
    const other = await heldCard();
    const notFound = async (request: ReturnType<typeof passOf>) => (await failure(request)).code;
    expect(await notFound(passOf(other.org, card.id))).toBe('not_found');
    expect(await notFound(passOf(org, card.id, { holderUserId: other.userId }))).toBe('not_found');
    expect(await notFound(passOf(org, card.id, { holderUserId: randomUUID(), platform: 'google' }))).toBe('not_found');
    for (const id of [randomUUID(), 'not-a-card', `${card.id}\u0000`, '']) expect(await notFound(passOf(org, id))).toBe('not_found');

    // Passed on to an address: the user no longer holds it; staff get the pass with the new identifier.
    const address = PrivateKey.fromRandom().toAddress([0x6f]);
    const moved = (await pos.client.transferLoyaltyCard({ org, id: card.id, to: holder({ address }) })).card!;
    expect(await notFound(passOf(org, card.id, { holderUserId: userId }))).toBe('not_found');
    const files = await unzip((await passOf(org, card.id)).body);
    expect(JSON.parse(files['pass.json']!.toString()).barcodes[0].message).toBe(moved.identifier);
    expect(moved.identifier).not.toBe(card.identifier);
  });

  it('refuses a platform other than apple or google, and a call without the organisation', async () => {
    const { org, card } = await heldCard();
    for (const platform of ['', 'android', 'Apple']) {
      expect(await failure(passOf(org, card.id, { platform }))).toMatchObject({
        code: 'validation_failed',
        details: { field: 'platform' },
      });
    }
    expect((await failure(pos.client.getLoyaltyPass({ cardId: card.id, platform: 'apple', publicUrl: PUBLIC_URL }))).code).toBe(
      'bad_request',
    );
  });
});
