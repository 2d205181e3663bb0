import { createRequire } from 'node:module';
import { AppError } from '@ctk/shared';
import type * as CsvParse from 'csv-parse/sync';
import { DraftList, MAX_DRAFTS, quoted } from './drafts.js';
import { isKnownCurrency, parsePrice } from './price.js';

/** Characters of one CSV record read at most. */
const MAX_RECORD = 10_000;

type Column = 'name' | 'price' | 'category' | 'description' | 'currency';

// Header cells, lower case and letters only, that name a column, from shop spreadsheets and supplier lists.
const HEADERS: Record<Column, string[]> = {
  name: ['name', 'item', 'itemname', 'product', 'productname', 'title', 'article', 'dish'],
  price: ['price', 'unitprice', 'retailprice', 'saleprice', 'sellingprice', 'priceeach', 'rrp', 'msrp', 'cost', 'unitcost', 'amount'],
  category: ['category', 'section', 'group', 'type', 'department', 'dept'],
  description: ['description', 'desc', 'details'],
  currency: ['currency', 'ccy'],
};
const COST_HEADERS = new Set(['cost', 'unitcost']);

type Layout = {
  columns: Partial<Record<Column, number>>;
  /** The currency a price header names ("Price (EUR)", "Price €"). */
  priceCurrency: string | null;
  /** Notes every draft of the file carries (how its columns were guessed). */
  notes: string[];
  hasHeader: boolean;
};

type Row = { record: string[]; info: { lines: number } };

/**
 * Drafts from a CSV exported from a spreadsheet or sent by a supplier: delimiter "," ";" or tab (the one the
 * first line uses most outside quotes), quoted fields, a header row naming the columns in common words
 * (name/item/product, price/cost/amount, category/section, description, currency), or, without one, the
 * first text column as the name and the first price-like column as the price.
 */
export function parseCsv(csv: string, currency: string, list = new DraftList()): DraftList {
  const rows = readRows(csv);
  if (rows.length === 0) return list;
  const layout = layoutOf(rows[0]!.record, currency);
  const { columns } = layout;
  for (const [index, { record, info }] of rows.entries()) {
    if (index === 0 && layout.hasHeader) continue;
    const where = `row ${info.lines}`;
    if (list.full) {
      list.skip(`rows from line ${info.lines}`, `not read: at most ${MAX_DRAFTS} drafts at once`);
      break;
    }
    const cell = (column: Column) => (columns[column] === undefined ? '' : (record[columns[column]] ?? '').replace(/\s+/g, ' ').trim());
    const name = cell('name');
    if (!name) {
      if (record.some((value) => value.trim())) list.skip(where, 'no name');
      continue;
    }
    const rowCurrency = cell('currency').toUpperCase();
    const named = isKnownCurrency(rowCurrency) ? rowCurrency : layout.priceCurrency;
    const assumed = named ?? currency;
    const notes = [...layout.notes];
    if (rowCurrency && !isKnownCurrency(rowCurrency)) notes.push(`currency ${quoted(cell('currency'))} not known: ${assumed} assumed`);
    const priceText = cell('price');
    let priceCents = 0n;
    let priceCurrency = assumed;
    if (!priceText) {
      notes.push('price missing');
    } else {
      const read = parsePrice(priceText, assumed);
      if ('problem' in read) {
        list.skip(where, read.problem);
        continue;
      }
      priceCents = read.price.priceCents;
      priceCurrency = read.price.currency;
      // "currency assumed" is no guess when the header or the row named it.
      notes.push(...read.price.notes.filter((note) => !named || !note.startsWith('currency assumed')));
    }
    list.add(where, { name, description: cell('description'), priceCents, currency: priceCurrency, category: cell('category'), notes });
  }
  return list;
}

/** csv-parse, loaded by the first CSV read rather than at pos's start (decision 0054; require keeps it after). */
const csvParse = () => createRequire(import.meta.url)('csv-parse/sync') as typeof CsvParse;

function readRows(csv: string): Row[] {
  const { CsvError, parse } = csvParse();
  try {
    return parse(csv, {
      delimiter: delimiterOf(csv),
      bom: true,
      info: true,
      relax_column_count: true,
      skip_empty_lines: true,
      max_record_size: MAX_RECORD,
    }) as unknown as Row[];
  } catch (error) {
    if (error instanceof CsvError) throw new AppError('validation_failed', `csv: ${error.message}`, { field: 'csv' });
    throw error;
  }
}

/** The delimiter the first line uses most outside quotes: "," when it uses none. */
function delimiterOf(csv: string): string {
  const counts = new Map<string, number>([
    [',', 0],
    [';', 0],
    ['\t', 0],
  ]);
  let inQuotes = false;
  for (const char of csv.slice(0, csv.indexOf('\n') >= 0 ? csv.indexOf('\n') : MAX_RECORD)) {
    if (char === '"') inQuotes = !inQuotes;
    else if (!inQuotes && counts.has(char)) counts.set(char, counts.get(char)! + 1);
  }
  return [...counts.entries()].reduce((best, entry) => (entry[1] > best[1] ? entry : best))[0];
}

function layoutOf(first: string[], currency: string): Layout {
  const columns: Partial<Record<Column, number>> = {};
  let priceCurrency: string | null = null;
  let priceHeader = '';
  for (const [index, cell] of first.entries()) {
    const key = cell
      .replace(/\(.*?\)/g, '')
      .toLowerCase()
      .replace(/[^a-z]/g, '');
    const column = (Object.keys(HEADERS) as Column[]).find((candidate) => HEADERS[candidate].includes(key));
    if (column === undefined || columns[column] !== undefined) continue;
    columns[column] = index;
    if (column === 'price') {
      priceHeader = cell.trim();
      priceCurrency = currencyNamedIn(cell, currency);
    }
  }
  if (columns.name !== undefined) {
    const notes = COST_HEADERS.has(priceHeader.toLowerCase().replace(/[^a-z]/g, ''))
      ? [`price from the ${quoted(priceHeader)} column: check it is what you charge, not what you pay`]
      : [];
    return { columns, priceCurrency, notes, hasHeader: true };
  }
  // No header: the first cell with a letter that is not a price names the item, the first price after it prices it.
  const nameAt = first.findIndex((cell) => /\p{L}/u.test(cell) && 'problem' in parsePrice(cell, currency));
  const priceAt = first.findIndex((cell, index) => index > nameAt && cell.trim() !== '' && 'price' in parsePrice(cell, currency));
  const guessed: Partial<Record<Column, number>> = nameAt >= 0 ? { name: nameAt } : {};
  if (nameAt >= 0 && priceAt >= 0) guessed.price = priceAt;
  const notes =
    nameAt >= 0
      ? [`no header row: name from column ${nameAt + 1}${priceAt >= 0 ? `, price from column ${priceAt + 1}` : ', no price column'}`]
      : [];
  return { columns: guessed, priceCurrency: null, notes, hasHeader: false };
}

/** A currency a price header names: "Price (EUR)", "Price €", "Cost GBP"; null when none. */
function currencyNamedIn(header: string, assumed: string): string | null {
  const code = /\b([A-Z]{3})\b/.exec(header)?.[1];
  if (code && isKnownCurrency(code)) return code;
  const symbol = /[$€£¥₹₩]/u.exec(header)?.[0];
  if (!symbol) return null;
  const read = parsePrice(`${symbol}1`, assumed);
  return 'price' in read ? read.price.currency : null;
}
