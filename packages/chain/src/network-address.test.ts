import { PrivateKey } from '@bsv/sdk';
import { describe, expect, it } from 'vitest';
import { addressOfPublicKey } from './network-address.js';

describe('addressOfPublicKey', () => {
  it("answers a compressed key's address in the network's form, whatever the case of its hex", () => {
    const key = PrivateKey.fromRandom();
    const publicKey = key.toPublicKey().toString();
    expect(addressOfPublicKey(publicKey.toUpperCase(), 'test', 'holder.public_key')).toBe(key.toAddress('testnet'));
    expect(addressOfPublicKey(publicKey, 'main', 'holder.public_key')).toBe(key.toAddress('mainnet'));
  });

  it('refuses what is not a compressed key on the curve, nor its one encoding, naming the field', () => {
    // x past the field's prime: the SDK would read it modulo the prime, another key's encoding.
    for (const text of ['02' + 'ff'.repeat(32), '02' + '00'.repeat(32), '04' + '11'.repeat(32), 'not a key']) {
      expect(() => addressOfPublicKey(text, 'test', 'holder.public_key')).toThrow(
        expect.objectContaining({ code: 'validation_failed', details: { field: 'holder.public_key' } }),
      );
    }
  });
});
