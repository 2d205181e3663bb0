import { createHash } from 'node:crypto';
import { LockingScript, P2PKH, PrivateKey, Transaction, Utils } from '@bsv/sdk';
import { describe, expect, it } from 'vitest';
import { canonicalOrderLines, findReceipt, hashOrderLines, parseReceipt, receiptScript, type OrderLine } from './index.js';

const LINES: OrderLine[] = [
  { item_id: 'itm_1', name: 'Flat white', quantity: 2, unit_price_minor: 450, currency: 'USD' },
  { item_id: null, name: 'Café crème "large"', quantity: 1, unit_price_minor: 500, currency: 'USD' },
];
const RECEIPT = { merchant: 'cafe@shop.example', reference: 'ORD-1042', linesHash: hashOrderLines(LINES) };

describe('order lines hash', () => {
  it('is SHA-256 over the documented canonical JSON, so any implementation can recompute it', () => {
    const canonical = '[["itm_1","Flat white",2,450,"USD"],[null,"Café crème \\"large\\"",1,500,"USD"]]';
    expect(canonicalOrderLines(LINES)).toBe(canonical);
    expect(hashOrderLines(LINES)).toBe(createHash('sha256').update(canonical, 'utf8').digest('hex'));
  });

  it('does not depend on key order or Unicode normalisation, and does depend on line order and values', () => {
    const reordered = LINES.map((l) => ({
      currency: l.currency,
      unit_price_minor: l.unit_price_minor,
      quantity: l.quantity,
      name: l.name.normalize('NFD'),
      item_id: l.item_id,
    }));
    expect(hashOrderLines(reordered)).toBe(RECEIPT.linesHash);
    expect(hashOrderLines([...LINES].reverse())).not.toBe(RECEIPT.linesHash);
    expect(hashOrderLines([{ ...LINES[0]!, quantity: 3 }, LINES[1]!])).not.toBe(RECEIPT.linesHash);
  });

  it('refuses lines that are not integers of minor units', () => {
    expect(() => hashOrderLines([{ ...LINES[0]!, unit_price_minor: 4.5 }])).toThrow(/not valid/);
    expect(() => hashOrderLines([])).toThrow(/not valid/);
  });
});

describe('receipt script', () => {
  it('round-trips through the script, its hex and a serialised transaction', () => {
    const script = receiptScript(RECEIPT);
    expect(script.toASM().startsWith('OP_0 OP_RETURN ' + Utils.toHex(Utils.toArray('ctk.receipt', 'utf8')) + ' 31 ')).toBe(true);
    expect(parseReceipt(script)).toEqual(RECEIPT);
    expect(parseReceipt(script.toHex())).toEqual(RECEIPT);

    const key = PrivateKey.fromRandom();
    const tx = new Transaction();
    tx.addOutput({ lockingScript: new P2PKH().lock(key.toAddress()), satoshis: 1000 });
    tx.addOutput({ lockingScript: script, satoshis: 0 });
    expect(findReceipt(Transaction.fromHex(tx.toHex()))).toEqual({ ...RECEIPT, vout: 1 });
  });

  it('keeps UTF-8 merchants and references', () => {
    const receipt = { merchant: 'bäckerei@shop.example', reference: 'Bestellung-ü1', linesHash: RECEIPT.linesHash };
    expect(parseReceipt(receiptScript(receipt).toHex())).toEqual(receipt);
  });

  it('refuses to build a receipt with a bad hash or empty fields', () => {
    expect(() => receiptScript({ ...RECEIPT, linesHash: 'abc' })).toThrow(/32 bytes/);
    expect(() => receiptScript({ ...RECEIPT, reference: '' })).toThrow(/reference/);
    expect(() => receiptScript({ ...RECEIPT, merchant: 'x'.repeat(256) })).toThrow(/merchant/);
  });

  it('rejects foreign OP_RETURNs and other scripts', () => {
    const push = (text: string) => Utils.toHex(Utils.toArray(text, 'utf8'));
    const hash = RECEIPT.linesHash;
    const foreign = [
      `OP_FALSE OP_RETURN ${push('19HxigV4QyBv3tHpQVcUEQyq1pzZVdoAut')} ${push('hello')}`,
      `OP_FALSE OP_RETURN ${push('ctk.receipt')} ${push('2')} ${push('m@x.example')} ${push('R1')} ${hash}`,
      `OP_FALSE OP_RETURN ${push('ctk.receipt')} ${push('1')} ${push('m@x.example')} ${push('R1')} ${hash.slice(2)}`,
      `OP_FALSE OP_RETURN ${push('ctk.receipt')} ${push('1')} ${push('m@x.example')} ${push('R1')} ${hash} ${push('extra')}`,
      `OP_RETURN ${push('ctk.receipt')} ${push('1')} ${push('m@x.example')} ${push('R1')} ${hash}`,
      `OP_FALSE OP_RETURN ${push('ctk.receipt')} ${push('1')} ff ${push('R1')} ${hash}`,
    ];
    for (const asm of foreign) expect(parseReceipt(LockingScript.fromASM(asm)), asm).toBeUndefined();
    expect(parseReceipt(new P2PKH().lock(PrivateKey.fromRandom().toAddress()))).toBeUndefined();
    expect(parseReceipt('zz')).toBeUndefined();
    expect(parseReceipt(receiptScript(RECEIPT).toHex().slice(0, -4))).toBeUndefined();
    const tx = new Transaction();
    tx.addOutput({ lockingScript: LockingScript.fromASM(foreign[0]!), satoshis: 0 });
    expect(findReceipt(tx)).toBeUndefined();
  });
});
