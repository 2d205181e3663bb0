import { readFileSync } from 'node:fs';
import { findReceipt, hashOrderLines, orderLinesSchema, receiptScript, type Receipt } from '@ctk/chain';
import { AppError, validate } from '@ctk/shared';
import { Transaction } from '@bsv/sdk';
import type { PaymentPlan, PlannedOutput } from './plan.js';

export type ReceiptOptions = { merchant?: string; reference?: string; lines?: string };

/**
 * The receipt output the wallet adds with `--reference` and `--lines` (JSON, or @file): OP_RETURN with
 * the merchant (`--merchant`, else the paymail paid), the reference and the lines' hash. A target whose
 * outputs already carry a receipt keeps its own.
 */
export function receiptOutput(options: ReceiptOptions, plan: PaymentPlan): { output?: PlannedOutput; receipt?: Receipt } {
  const existing = findReceipt(
    new Transaction(
      1,
      [],
      plan.outputs.map((output) => ({ lockingScript: output.lockingScript, satoshis: output.satoshis })),
    ),
  );
  if (existing) {
    if (options.reference || options.lines)
      throw new AppError('bad_request', 'The payee already put a receipt in the payment: drop --reference and --lines.');
    return { receipt: { merchant: existing.merchant, reference: existing.reference, linesHash: existing.linesHash } };
  }
  if (!options.reference && !options.lines) return {};
  if (!options.reference || !options.lines) throw new AppError('bad_request', 'A receipt needs both --reference and --lines.');
  const merchant = options.merchant ?? plan.merchant;
  if (!merchant) throw new AppError('bad_request', "A receipt needs --merchant (the merchant's paymail or name) when paying an address.");
  const receipt = {
    merchant,
    reference: options.reference,
    linesHash: hashOrderLines(validate(orderLinesSchema, readLines(options.lines), 'lines')),
  };
  return { output: { lockingScript: receiptScript(receipt), satoshis: 0 }, receipt };
}

function readLines(value: string): unknown {
  const text = value.startsWith('@') ? readText(value.slice(1)) : value;
  try {
    return JSON.parse(text);
  } catch {
    throw new AppError('bad_request', '--lines must be a JSON array of order lines, or @file with one.');
  }
}

function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    throw new AppError('bad_request', `Cannot read the lines file ${path}.`);
  }
}
