import { describe, expect, it } from 'vitest';
import { imbalance } from './build-journal-entry.js';
import type { PostingLine } from './posting-rules.js';

const line = (accountCode: PostingLine['accountCode'], debitMinor: bigint, creditMinor: bigint): PostingLine => ({
  accountCode,
  debitMinor,
  creditMinor,
});

describe('the balance check every entry passes before it is written', () => {
  it('accepts lines whose debits equal their credits', () => {
    expect(imbalance([line('1010', 1075n, 0n), line('4000', 0n, 1000n), line('2100', 0n, 75n)])).toBeUndefined();
  });

  it('rejects lines whose debits and credits differ, by as little as one minor unit', () => {
    expect(imbalance([line('1010', 1075n, 0n), line('4000', 0n, 1000n), line('2100', 0n, 74n)])).toBe(
      'unbalanced: debits 1075 do not equal credits 1074',
    );
  });

  it('compares sums beyond 2^53 exactly', () => {
    const big = 2n ** 62n;
    expect(imbalance([line('1010', big + 1n, 0n), line('4000', 0n, big)])).toMatch(/^unbalanced/);
  });

  it('rejects an empty entry, a line that is both debit and credit, and a negative line', () => {
    expect(imbalance([])).toMatch(/at least one debit and one credit/);
    expect(imbalance([line('1010', 5n, 5n), line('4000', 0n, 0n)])).toMatch(/either a positive debit or a positive credit/);
    expect(imbalance([line('1010', -5n, 0n), line('4000', -5n, 0n)])).toMatch(/either a positive debit or a positive credit/);
  });
});
