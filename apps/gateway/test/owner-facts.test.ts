import { HD, PrivateKey } from '@bsv/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { moveOwnerFacts } from '../src/identity/move-owner-facts.js';
import { bearer, onboard, type Gateway } from './harness.js';
import { startOwnersStack } from './owners-harness.js';
import { expectError, uniqueName } from './support.js';

const silent = { error: () => undefined };

describe('an organisation’s wallet and tax settings live with p2p and books', () => {
  let gateway: Gateway;
  beforeAll(async () => {
    gateway = await startOwnersStack();
  });
  afterAll(() => gateway?.close());

  const read = (owner: { handle: string; key: string }) =>
    gateway.app.inject({ method: 'GET', url: `/api/v1/organizations/${owner.handle}`, headers: bearer(owner.key) });

  it('moves the values the gateway kept to their owners and empties its copy; a second move finds nothing', async () => {
    const owner = await onboard(gateway, uniqueName('Kept'));
    const xpub = HD.fromRandom().derive("m/44'/236'/0'").toPublic().toString();
    const identity = PrivateKey.fromRandom().toPublicKey().toString();
    const prisma = gateway.deps.prisma;
    await prisma.organization.update({
      where: { id: owner.orgId },
      data: { jurisdiction: 'GB', pricesIncludeTax: false, walletXpub: xpub, identityPublicKey: identity },
    });
    expect(await moveOwnerFacts(gateway.deps, silent)).toBe(1);
    expect((await read(owner)).json()).toMatchObject({
      jurisdiction: 'GB',
      prices_include_tax: false,
      wallet_xpub: xpub,
      identity_public_key: identity,
      receiving_address: null,
    });
    expect(
      await prisma.organization.findUniqueOrThrow({
        where: { id: owner.orgId },
        select: { jurisdiction: true, pricesIncludeTax: true, walletXpub: true, identityPublicKey: true, receivingAddress: true },
      }),
    ).toEqual({ jurisdiction: null, pricesIncludeTax: null, walletXpub: null, identityPublicKey: null, receivingAddress: null });
    expect(await moveOwnerFacts(gateway.deps, silent)).toBe(0);
  });

  it('a PATCH empties the old copy of what it changes, so a later move cannot write the older value over it', async () => {
    const owner = await onboard(gateway, uniqueName('Newer'));
    await gateway.deps.prisma.organization.update({ where: { id: owner.orgId }, data: { jurisdiction: 'FR' } });
    const patched = await gateway.app.inject({
      method: 'PATCH',
      url: `/api/v1/organizations/${owner.handle}`,
      headers: bearer(owner.key),
      payload: { jurisdiction: 'DE' },
    });
    expect(patched.json()).toMatchObject({ jurisdiction: 'DE' });
    await moveOwnerFacts(gateway.deps, silent);
    expect((await read(owner)).json()).toMatchObject({ jurisdiction: 'DE', prices_include_tax: true });
  });
});

describe('a change for two owners when one does not answer', () => {
  let gateway: Gateway;
  beforeAll(async () => {
    gateway = await startOwnersStack({ down: 'books' });
  });
  afterAll(() => gateway?.close());

  it('is a 503 before anything is written: neither the wallet nor the name changes', async () => {
    const owner = await onboard(gateway, uniqueName('Half'));
    const xpub = HD.fromRandom().derive("m/44'/236'/0'").toPublic().toString();
    const response = await gateway.app.inject({
      method: 'PATCH',
      url: `/api/v1/organizations/${owner.handle}`,
      headers: bearer(owner.key),
      payload: { name: 'Renamed', wallet_xpub: xpub, jurisdiction: 'GB' },
    });
    expectError(response, 503, 'unavailable');
    const read = await gateway.app.inject({ method: 'GET', url: `/api/v1/organizations/${owner.handle}`, headers: bearer(owner.key) });
    expect(read.json()).toMatchObject({ name: expect.not.stringMatching(/^Renamed$/), wallet_xpub: null });
  });

  it('answers an organisation with the fields books keeps as none chosen, and those p2p keeps as they are', async () => {
    const owner = await onboard(gateway, uniqueName('Partly'));
    const address = PrivateKey.fromRandom().toAddress() as string;
    const patched = await gateway.app.inject({
      method: 'PATCH',
      url: `/api/v1/organizations/${owner.handle}`,
      headers: bearer(owner.key),
      payload: { receiving_address: address },
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json()).toMatchObject({ receiving_address: address, jurisdiction: null, prices_include_tax: false });
  });
});
