import { randomUUID } from 'node:crypto';
import { HD, P2PKH, PrivateKey } from '@bsv/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure, merchantWallet, startStack, type TestStack } from './support.js';

let stack: TestStack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());

const newOrg = () => ({ id: randomUUID(), handle: `cafe-${randomUUID().slice(0, 8)}` });
/** The address with its last character changed (never left as it was): its checksum no longer holds. */
const withLastCharacterChanged = (address: string) => `${address.slice(0, -1)}${address.endsWith('1') ? '2' : '1'}`;
const walletOf = async (id: string) => (await stack.client.getWallets({ organizationIds: [id] })).wallets[0];

describe('p2p keeps the public side of each organisation’s wallet', () => {
  it('stores the facts given, keeps the others, answers them per organisation in order, and an organisation without any has empty fields', async () => {
    const org = newOrg();
    const { xpub, identity } = merchantWallet();
    const address = PrivateKey.fromRandom().toAddress() as string;
    const key = identity.toPublicKey().toString();
    await stack.client.setWallet({ org, receivingAddress: address });
    const { wallet } = await stack.client.setWallet({ org, walletXpub: xpub, identityPublicKey: key.toUpperCase() });
    expect(wallet).toEqual({ organizationId: org.id, receivingAddress: address, walletXpub: xpub, identityPublicKey: key });
    const stranger = randomUUID();
    const { wallets } = await stack.client.getWallets({ organizationIds: [stranger, org.id] });
    expect(wallets).toEqual([{ organizationId: stranger, receivingAddress: '', walletXpub: '', identityPublicKey: '' }, wallet]);
  });

  it.each([
    ['an extended private key', { walletXpub: HD.fromRandom().toString() }, 'wallet_xpub'],
    ['something that is not a key', { walletXpub: 'xpub-not-really' }, 'wallet_xpub'],
    ['an uncompressed identity key', { identityPublicKey: '04abcd' }, 'identity_public_key'],
    [
      'an address with a bad checksum',
      { receivingAddress: withLastCharacterChanged(PrivateKey.fromRandom().toAddress() as string) },
      'receiving_address',
    ],
    ['not an address', { receivingAddress: 'my-wallet' }, 'receiving_address'],
  ])('refuses %s as validation_failed naming the field, and stores nothing of the call', async (_label, fields, field) => {
    const org = newOrg();
    const address = PrivateKey.fromRandom().toAddress() as string;
    const refused = await failure(
      stack.client.setWallet({ org, receivingAddress: field === 'receiving_address' ? undefined : address, ...fields }),
    );
    expect(refused).toMatchObject({ code: 'validation_failed', details: { field, issues: [{ field }] } });
    expect(JSON.stringify(refused)).not.toContain('xprv');
    expect(await walletOf(org.id)).toMatchObject({ receivingAddress: '', walletXpub: '', identityPublicKey: '' });
  });

  it('checks without storing when asked to validate only', async () => {
    const org = newOrg();
    const { xpub } = merchantWallet();
    const { wallet } = await stack.client.setWallet({ org, walletXpub: xpub, validateOnly: true });
    expect(wallet?.walletXpub).toBe(xpub);
    expect((await walletOf(org.id))?.walletXpub).toBe('');
    expect(await failure(stack.client.setWallet({ org, walletXpub: 'nope', validateOnly: true }))).toMatchObject({
      code: 'validation_failed',
    });
  });

  it('derives payment outputs from the wallet it keeps, not from the call', async () => {
    const org = newOrg();
    const expiresAt = new Date(Date.now() + 60_000).toISOString();
    expect(await failure(stack.client.allocateDestination({ org, expiresAt }))).toMatchObject({ code: 'failed_precondition' });
    const address = PrivateKey.fromRandom().toAddress() as string;
    await stack.client.setWallet({ org, receivingAddress: address });
    expect((await stack.client.allocateDestination({ org, expiresAt })).script).toBe(new P2PKH().lock(address).toHex());
  });
});
