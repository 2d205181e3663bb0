import { HD, P2PKH } from '@bsv/sdk';
import { describe, expect, it } from 'vitest';
import { childScript } from '../src/paymail/child-script.js';

describe('a child receiving script of an xpub', () => {
  it('is the script of m/0/<index>, derived from the xpub itself, whether derived now or kept from before', () => {
    const xpubs = [HD.fromRandom().toPublic().toString(), HD.fromRandom().toPublic().toString()];
    for (const xpub of xpubs)
      for (const index of [0, 1, 2, 19, 1_000, 2 ** 31 - 1]) {
        const expected = new P2PKH().lock(HD.fromString(xpub).derive(`m/0/${index}`).pubKey.toHash() as number[]).toHex();
        expect(childScript(xpub, index)).toBe(expected);
        // Kept: the same again.
        expect(childScript(xpub, index)).toBe(expected);
      }
    expect(childScript(xpubs[0]!, 7)).not.toBe(childScript(xpubs[1]!, 7));
  });
});
