import { PrivateKey } from '@bsv/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { didKeyFromPublicKey } from './did-key.js';
import { bearer, onboard, type Onboarded, type Gateway } from './harness.js';
import { startPosStack } from './pos-harness.js';
import { expectError, uniqueName } from './support.js';

/**
 * Binding a card to an address needs the key (docs/decisions/0024-proof-holds-and-privacy.md): a customer
 * who names an address or a public key proves it with a signed challenge, as sign-in does; staff at the
 * counter bind the address the customer shows them.
 */

let stack: Awaited<ReturnType<typeof startPosStack>>;
let gateway: Gateway;
beforeAll(async () => {
  stack = await startPosStack();
  gateway = stack.gateway;
}, 60_000);
afterAll(() => stack?.close());

const send = (method: 'GET' | 'POST' | 'PUT', url: string, key?: string, payload?: object) =>
  gateway.app.inject({ method, url, ...(key ? { headers: bearer(key) } : {}), ...(payload ? { payload } : {}) });

/** A customer's own key and its address on the test chain (testnet form). */
function wallet() {
  const privateKey = PrivateKey.fromRandom();
  const publicKey = privateKey.toPublicKey();
  return { privateKey, publicKey: publicKey.toString(), address: privateKey.toAddress([0x6f]), did: didKeyFromPublicKey(publicKey) };
}

/** The wallet signs a fresh challenge for `purpose`: the proof a request carries. */
async function prove(owner: ReturnType<typeof wallet>, purpose?: string) {
  const asked = await send('POST', '/api/auth/challenge', undefined, { did: owner.did, ...(purpose ? { purpose } : {}) });
  expect(asked.statusCode, asked.body).toBe(201);
  const { nonce, message } = asked.json();
  return { nonce, signature: owner.privateKey.sign(message, 'utf8').toDER('hex') as string, message: message as string };
}

async function cafe(label: string): Promise<Onboarded> {
  const org = await onboard(gateway, uniqueName(label));
  const program = { stamp_rule: 'visit', stamps_for_reward: 8, reward: 'A free coffee' };
  expect((await send('PUT', `/api/v1/orgs/${org.handle}/loyalty-program`, org.key, program)).statusCode).toBe(200);
  return org;
}

const join = (customer: Onboarded, org: Onboarded, body: object) =>
  send('POST', '/api/v1/loyalty-cards', customer.key, { org_handle: org.handle, ...body });

/** The loyalty cards staff see the address hold at their shop (the POS card's held cards). */
async function heldByAddress(org: Onboarded, address: string): Promise<string[]> {
  const card = await send('POST', '/api/pos/cards', org.key, { org_handle: org.handle, holder: { address } });
  expect(card.statusCode, card.body).toBeLessThan(300);
  return card.json().loyalty_cards.map((held: { id: string }) => held.id);
}

describe('binding a card to an address needs the key', () => {
  it("a customer cannot take a loyalty card for someone else's address or key; staff then make the victim's card", async () => {
    const org = await cafe('Squat Cafe');
    const victim = wallet();
    const squatter = await onboard(gateway, uniqueName('Squatter'));
    for (const holder of [{ address: victim.address }, { public_key: victim.publicKey }]) {
      const refused = await join(squatter, org, holder);
      expectError(refused, 422, 'validation_failed');
      expect(refused.json().error.details.field).toBe('proof');
      expect(refused.json().error.message).toContain('/api/auth/challenge');
    }
    // Nothing was bound: the victim's address holds nothing, and staff make its card at the counter.
    expect(await heldByAddress(org, victim.address)).toEqual([]);
    const made = await send('POST', '/api/pos/loyalty-cards', org.key, { org_handle: org.handle, holder: { address: victim.address } });
    expect(made.statusCode, made.body).toBe(201);
    expect(await heldByAddress(org, victim.address)).toEqual([made.json().id]);
    // Without an address the squatter's card is theirs alone.
    expect((await join(squatter, org, {})).statusCode).toBe(201);
  });

  it('a customer who signs a bind_card challenge binds their card to the key; the proof is spent once and proves that key only', async () => {
    const [org, other] = [await cafe('Proof Cafe'), await cafe('Other Cafe')];
    const owner = wallet();
    const customer = await onboard(gateway, uniqueName('Sam'));
    const proof = await prove(owner, 'bind_card');
    expect(proof.message.split('\n')[3]).toBe('Bind this key and its address to a card at Commerce Toolkit.');

    const joined = await join(customer, org, { address: owner.address, proof: { nonce: proof.nonce, signature: proof.signature } });
    expect(joined.statusCode, joined.body).toBe(201);
    expect(await heldByAddress(org, owner.address)).toEqual([joined.json().id]);

    // Spent: the same proof again (anyone's, anywhere) is refused, and nothing is bound.
    const thief = await onboard(gateway, uniqueName('Thief'));
    const replay = await join(thief, other, { address: owner.address, proof: { nonce: proof.nonce, signature: proof.signature } });
    expectError(replay, 401, 'invalid_signature');
    expect(await heldByAddress(other, owner.address)).toEqual([]);

    // The thief's own key does not prove the owner's address.
    const thiefKey = wallet();
    const own = await prove(thiefKey, 'bind_card');
    const mismatch = await join(thief, other, { address: owner.address, proof: { nonce: own.nonce, signature: own.signature } });
    expectError(mismatch, 422, 'validation_failed');
    expect(mismatch.json().error.details.field).toBe('address');
    expect(await heldByAddress(other, owner.address)).toEqual([]);

    // A wrong signature spends the nonce too; a sign-in challenge does not bind, nor a bind_card one sign in.
    const wrong = await prove(owner, 'bind_card');
    expectError(
      await join(customer, other, { public_key: owner.publicKey, proof: { nonce: wrong.nonce, signature: proof.signature } }),
      401,
      'invalid_signature',
    );
    const signIn = await prove(owner);
    expectError(
      await join(customer, other, { public_key: owner.publicKey, proof: { nonce: signIn.nonce, signature: signIn.signature } }),
      401,
      'invalid_signature',
    );
    const bind = await prove(owner, 'bind_card');
    expectError(
      await send('POST', '/api/auth/verify', undefined, { nonce: bind.nonce, signature: bind.signature }),
      401,
      'invalid_signature',
    );

    // A proof alone names the key: the card binds to it.
    const keyOnly = await prove(owner, 'bind_card');
    const second = await join(await onboard(gateway, uniqueName('Kim')), other, {
      proof: { nonce: keyOnly.nonce, signature: keyOnly.signature },
    });
    expect(second.statusCode, second.body).toBe(201);
    expect(await heldByAddress(other, owner.address)).toEqual([second.json().id]);
  });
});
