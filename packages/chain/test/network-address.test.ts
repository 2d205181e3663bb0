import { PrivateKey } from '@bsv/sdk';
import { describe, expect, it } from 'vitest';
import { addressOfPublicKey, networkAddress } from '../src/network-address.js';

describe('customer addresses', () => {
  const key = PrivateKey.fromRandom();
  const publicKey = key.toPublicKey().toString();

  it("reads a compressed public key as its address in the network's form", () => {
    expect(addressOfPublicKey(publicKey, 'main', 'public_key')).toBe(key.toAddress([0x00]));
    expect(addressOfPublicKey(publicKey.toUpperCase(), 'test', 'public_key')).toBe(key.toAddress([0x6f]));
  });

  it.each([
    ['uncompressed', `04${publicKey.slice(2)}`],
    ['short', publicKey.slice(0, 64)],
    ['an x with no point', `02${'0'.repeat(63)}5`],
    // At or above the field prime: the SDK would reduce it to another x and answer that point's address.
    ['an x beyond the field', `02${'f'.repeat(64)}`],
  ])('refuses a public key that is %s, naming the field', (_, text) => {
    expect(() => addressOfPublicKey(text, 'main', 'holder.public_key')).toThrow(
      expect.objectContaining({ code: 'validation_failed', details: { field: 'holder.public_key' } }),
    );
  });

  it("takes an address of the chain's network only", () => {
    expect(networkAddress(key.toAddress([0x6f]), 'local', 'address')).toBe(key.toAddress([0x6f]));
    expect(() => networkAddress(key.toAddress([0x00]), 'test', 'address')).toThrow(expect.objectContaining({ code: 'validation_failed' }));
    expect(() => networkAddress(key.toAddress([0x6f]), 'main', 'address')).toThrow(expect.objectContaining({ code: 'validation_failed' }));
  });
});
