import type { ExportJournalRequest, ListJournalEntriesRequest } from '@ctk/proto/ctk/books/v1/books';
import { z } from 'zod';
import { requireOrg } from '../auth/authenticate.js';
import { messageDesc } from '../contract/contract-registry.js';
import { fromJson, toJson } from '../contract/json-mapping.js';
import { messageSchema } from '../contract/message-schema.js';
import type { GatewayDeps } from '../deps.js';
import { orgParams } from '../identity/organization-fields.js';
import { openExport } from '../ledger/export-stream.js';
import { LEDGER_FILES } from '../ledger/ledger-files.js';
import { pageOf } from './answer-schema.js';
import { limitField } from './pagination.js';
import { route, type RouteDefinition } from './route-definition.js';
import { callOptions, orgRef } from './service-call.js';
import { queryValue } from './text-fields.js';

/**
 * How long an export may take from its first byte to its last: the call to books carries it as its
 * deadline. 50,000 entries (books' default cap) take a few seconds.
 */
const EXPORT_TIMEOUT_MS = 5 * 60_000;

const entry = messageDesc('ctk.books.v1.JournalEntry');
const listRequest = messageDesc('ctk.books.v1.ListJournalEntriesRequest');
const exportRequest = messageDesc('ctk.books.v1.ExportJournalRequest');

/**
 * `from` and `to` are UTC calendar dates, both included; `limit` and `cursor` page the JSON listing, an
 * export is always the whole range. Shape only: books checks the dates, the cursor and the format, and
 * names the field it refuses. An unknown parameter is a 422: a misspelt `from` would otherwise list the
 * whole journal.
 */
const ledgerQuery = z
  .object({
    from: queryValue.optional().describe('A UTC calendar date YYYY-MM-DD: entries from its start'),
    to: queryValue.optional().describe('A UTC calendar date YYYY-MM-DD: entries up to its end'),
    limit: limitField.optional(),
    cursor: queryValue.max(200).optional().describe('next_cursor of the previous page'),
    format: queryValue.default('json').describe('json (a page of entries), or a file: csv, quickbooks, xero, hledger or beancount'),
    xero_tax_rate: queryValue.optional().describe('xero only: the name of the tax rate Xero puts on each line; "Tax Exempt" by default'),
  })
  .strict()
  .refine((q) => q.format === 'json' || (q.limit === undefined && q.cursor === undefined), {
    message: 'limit and cursor page the JSON listing; an export is always the whole date range',
    path: ['cursor'],
  });

/**
 * The organisation's journal, served by the books service: a page of entries as JSON, or the whole
 * date range as a file for accounting software (csv, quickbooks, xero, hledger, beancount), which books
 * writes and the gateway streams to the client as it comes. By hand: one path, two RPCs, and a stream.
 */
export function ledgerRoutes(deps: GatewayDeps): Record<string, RouteDefinition> {
  return {
    'GET /api/v1/orgs/:handle/ledger': route({
      params: orgParams,
      query: ledgerQuery,
      answer: pageOf('JournalEntry', messageSchema(entry, 'answer'), 'MjAyNi0wMy0wMlQwOTo0MTowNy4wMDBafDZkOGYwYTJj'),
      files: LEDGER_FILES,
      handle: async ({ query, request, reply }) => {
        const { format, ...fields } = query;
        const org = orgRef(requireOrg(request));
        if (format === 'json') {
          const page = await deps.services.books.listJournalEntries(
            { ...(fromJson(listRequest, fields) as Partial<ListJournalEntriesRequest>), org },
            callOptions(request),
          );
          return { data: page.entries.map((e) => toJson(entry, e as never)), next_cursor: page.nextCursor || null };
        }
        const file = await openExport(
          deps.services.books.exportJournal(
            { ...(fromJson(exportRequest, { ...fields, format }) as Partial<ExportJournalRequest>), org },
            { ...callOptions(request), timeoutMs: EXPORT_TIMEOUT_MS },
          ),
        );
        reply.type(file.mediaType).header('content-disposition', `attachment; filename="${file.fileName}"`);
        return file.body;
      },
    }),
  };
}
