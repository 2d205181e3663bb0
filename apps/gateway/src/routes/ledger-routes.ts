import { requireOrg } from '../auth/authenticate.js';
import type { GatewayDeps } from '../deps.js';
import { entryView } from '../ledger/entry-view.js';
import { openExport } from '../ledger/export-stream.js';
import { journalEntryPage, LEDGER_FILES } from '../ledger/ledger-answers.js';
import { ledgerParams, ledgerQuery } from '../ledger/ledger-input.js';
import { route, type RouteDefinition } from './route-definition.js';
import { callOptions, orgRef } from './service-call.js';

/**
 * How long an export may take from its first byte to its last: the call to books carries it as its
 * deadline. 50,000 entries (books' default cap) take a few seconds.
 */
const EXPORT_TIMEOUT_MS = 5 * 60_000;

/**
 * The organisation's journal, served by the books service: a page of entries as JSON, or the whole
 * date range as a file for accounting software (csv, quickbooks, xero, hledger, beancount), which books
 * writes and the gateway streams to the client as it comes.
 */
export function ledgerRoutes(deps: GatewayDeps): Record<string, RouteDefinition> {
  return {
    'GET /api/v1/orgs/:handle/ledger': route({
      params: ledgerParams,
      query: ledgerQuery,
      answer: journalEntryPage,
      files: LEDGER_FILES,
      handle: async ({ query, request, reply }) => {
        const range = { org: orgRef(requireOrg(request)), from: query.from ?? '', to: query.to ?? '' };
        if (query.format === 'json') {
          const page = await deps.services.books.listJournalEntries(
            { ...range, limit: query.limit ?? 50, cursor: query.cursor ?? '' },
            callOptions(request),
          );
          return { data: page.entries.map(entryView), next_cursor: page.nextCursor || null };
        }
        const file = await openExport(
          deps.services.books.exportJournal(
            { ...range, format: query.format, xeroTaxRate: query.xero_tax_rate ?? '' },
            { ...callOptions(request), timeoutMs: EXPORT_TIMEOUT_MS },
          ),
        );
        reply.type(file.mediaType).header('content-disposition', `attachment; filename="${file.fileName}"`);
        return file.body;
      },
    }),
  };
}
