import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { minorUnitsOf } from '../src/routes/answer-schema.js';
import { onboard, type Onboarded, type Gateway } from './harness.js';
import { runTool } from '@ctk/shared/testing';
import { getLedger, paymentEvent, post, startLedgerStack } from './ledger-harness.js';
import { uniqueName } from './support.js';

// The formats themselves are books' (apps/books/test/export-formats.test.ts); these run them end to end.

describe('amounts in the JSON listing', () => {
  it('are JSON numbers while exact, and strings of the integer beyond 2^53', () => {
    expect(minorUnitsOf(1234n)).toBe(1234);
    expect(minorUnitsOf(BigInt(Number.MAX_SAFE_INTEGER))).toBe(Number.MAX_SAFE_INTEGER);
    expect(minorUnitsOf(BigInt(Number.MAX_SAFE_INTEGER) + 2n)).toBe('9007199254740993');
  });
});

describe('exports of descriptions with line breaks and control characters, through the gateway and books', () => {
  let stack: Awaited<ReturnType<typeof startLedgerStack>>;
  let gateway: Gateway;
  let shop: Onboarded;
  const exported = async (format: string) => {
    const response = await getLedger(gateway, shop.key, shop, `?format=${format}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.body;
  };
  beforeAll(async () => {
    stack = await startLedgerStack();
    gateway = stack.gateway;
    shop = await onboard(gateway, uniqueName('Awkward Cafe'));
    await post(gateway, [
      paymentEvent(shop.orgId, { description: 'Latte\r\nextra shot\u2028to go\u2029now\u0085then\ttab' }),
      paymentEvent(shop.orgId, { description: 'Cake\n2026-01-01 * "not a transaction"\n    Assets:Cash  1 USD' }),
    ]);
  });
  afterAll(async () => {
    await stack?.close();
  });

  it.each(['csv', 'quickbooks', 'xero'])('%s: keeps each journal line on one CSV row, the text flattened to spaces', async (format) => {
    const body = await exported(format);
    const rows = body.split(/\r\n|\n|\r|\u2028|\u2029|\u0085/).filter(Boolean);
    expect(rows).toHaveLength(1 + 3 + 3);
    expect(body).toContain('Latte extra shot to go now then tab');
  });

  it('writes an hledger journal that hledger still checks strictly, with no transaction smuggled in', async () => {
    const journal = await exported('hledger');
    expect(journal).not.toMatch(/[\r\u0085\u2028\u2029\t]/);
    await runTool('hledger', (file) => ['check', '--strict', '-f', file], journal, 'journal');
    const { stdout } = await runTool('hledger', (file) => ['-f', file, 'print'], journal, 'journal');
    expect(stdout.match(/^\d{4}-\d\d-\d\d /gm)).toHaveLength(2);
  });

  it('writes a beancount ledger that bean-check still accepts', async () => {
    const ledger = await exported('beancount');
    expect(ledger).not.toMatch(/[\r\u0085\u2028\u2029\t]/);
    expect(ledger).not.toMatch(/^2026-01-01/m);
    const { stdout, stderr } = await runTool('bean-check', (file) => [file], ledger, 'beancount');
    expect(stdout + stderr).toBe('');
  });
});
