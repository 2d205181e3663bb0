import { request as httpRequest } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { BooksServiceDefinition, type BooksServiceImplementation, type ExportJournalRequest } from '@ctk/proto/ctk/books/v1/books';
import { AppError, createLogger, startGrpcServer, type GrpcServer } from '@ctk/shared';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { onboard, startTestGateway, type Onboarded, type Gateway } from './harness.js';
import { getLedger } from './ledger-harness.js';
import { expectError, SERVICES_DOWN, uniqueName } from './support.js';

/** What the stand-in books saw of the last export: its request, and whether the gateway cancelled it. */
const seen: { request?: ExportJournalRequest; cancelled?: boolean; sent?: number } = {};

/** A books whose ExportJournal does what the request's format names, to show what the gateway makes of it. */
function standInBooks(): BooksServiceImplementation {
  const notUsed = async (): Promise<never> => {
    throw new AppError('not_implemented', 'not used by these tests');
  };
  const file = { mediaType: 'text/csv; charset=utf-8', fileName: 'blue-bottle-cafe-journal.csv' };
  return {
    getSetup: notUsed,
    listJournalEntries: notUsed,
    listTaxJurisdictions: notUsed,
    getTaxRate: notUsed,
    getSalesReport: notUsed,
    getTopItems: notUsed,
    getBusyHours: notUsed,
    getTrialBalance: notUsed,
    getTaxSettings: notUsed,
    setTaxSettings: notUsed,
    async *exportJournal(request, context) {
      seen.request = request;
      seen.cancelled = false;
      seen.sent = 0;
      context.signal.addEventListener('abort', () => (seen.cancelled = true));
      if (request.format === 'xero') {
        throw new AppError('validation_failed', 'Xero manual journals carry no currency', { field: 'format', currencies: ['USD', 'JPY'] });
      }
      yield { ...file, chunk: Buffer.from('entry_id,date\r\n') };
      if (request.format === 'quickbooks') {
        // books lost its database after the file started
        yield { chunk: Buffer.from('row-1,2026-03-02\r\n') };
        await sleep(20);
        throw new AppError('unavailable', 'The database went away');
      }
      for (let i = 0; ; i++) {
        yield { chunk: Buffer.from(`row-${i},${'x'.repeat(16 * 1024)}\r\n`) };
        seen.sent++;
      }
    },
  };
}

/** A real HTTP GET, as a browser or curl downloads the file: its status, headers, what arrived and how it ended. */
function download(gateway: Gateway, path: string, key: string, stopAfterBytes?: number) {
  return new Promise<{ status: number; headers: Record<string, unknown>; body: string; ended: 'complete' | 'aborted' | 'stopped' }>(
    (resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port: gateway.port, path, headers: { authorization: `Bearer ${key}` } }, (res) => {
        const chunks: Buffer[] = [];
        let received = 0;
        const result = (ended: 'complete' | 'aborted' | 'stopped') => ({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks).toString('utf8'),
          ended,
        });
        res.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          received += chunk.length;
          if (stopAfterBytes !== undefined && received >= stopAfterBytes) {
            req.destroy();
            resolve(result('stopped'));
          }
        });
        res.on('end', () => resolve(result('complete')));
        res.on('aborted', () => resolve(result('aborted')));
        res.on('error', () => resolve(result('aborted')));
      });
      req.on('error', reject);
      req.end();
    },
  );
}

describe('the ledger exports streamed from books to the HTTP client', () => {
  let books: GrpcServer;
  let gateway: Gateway;
  let shop: Onboarded;
  beforeAll(async () => {
    books = await startGrpcServer({
      name: 'books',
      address: '127.0.0.1:0',
      logger: createLogger('books', 'silent'),
      services: [[BooksServiceDefinition, standInBooks()]],
    });
    gateway = await startTestGateway({ ...SERVICES_DOWN, BOOKS_GRPC_URL: `127.0.0.1:${books.port}` });
    shop = await onboard(gateway, uniqueName('Stream Cafe'));
  });
  afterAll(async () => {
    await gateway?.close();
    await books?.shutdown();
  });

  it('passes books the inclusive dates, the format and the Xero tax rate as validated, with the organisation', async () => {
    await download(
      gateway,
      `/api/v1/orgs/${shop.handle}/ledger?format=csv&from=2026-03-01&to=9999-12-31&xero_tax_rate=No%20VAT`,
      shop.key,
      1,
    );
    expect(seen.request).toMatchObject({ from: '2026-03-01', to: '9999-12-31', format: 'csv', xeroTaxRate: 'No VAT' });
    expect(seen.request?.org).toMatchObject({ id: shop.orgId, handle: shop.handle });
  });

  it('answers a refusal books makes before the first byte as a clean 4xx with the error, not a file', async () => {
    const response = await getLedger(gateway, shop.key, shop, '?format=xero');
    expectError(response, 422, 'validation_failed');
    expect(response.json().error.details).toMatchObject({ field: 'format', currencies: ['USD', 'JPY'] });
    expect(response.headers['content-disposition']).toBeUndefined();
  });

  it('aborts the HTTP response when books fails after the file started, so no truncated file looks complete', async () => {
    const result = await download(gateway, `/api/v1/orgs/${shop.handle}/ledger?format=quickbooks`, shop.key);
    expect(result.status).toBe(200);
    expect(result.headers['content-disposition']).toBe('attachment; filename="blue-bottle-cafe-journal.csv"');
    expect(result.body).toBe('entry_id,date\r\nrow-1,2026-03-02\r\n');
    expect(result.ended).toBe('aborted');
  });

  it('sends the file as it comes (chunked, no length known in advance), and cancels the export in books when the client goes away', async () => {
    const result = await download(gateway, `/api/v1/orgs/${shop.handle}/ledger?format=csv`, shop.key, 200 * 1024);
    expect(result.status).toBe(200);
    expect(result.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(result.headers['transfer-encoding']).toBe('chunked');
    expect(result.body.startsWith('entry_id,date\r\nrow-0,')).toBe(true);
    await vi.waitFor(() => expect(seen.cancelled).toBe(true), { timeout: 5_000 });
    const sent = seen.sent ?? 0;
    await sleep(200);
    expect(seen.sent).toBe(sent);
  });
});
