import type { JournalEntry } from '@ctk/proto/ctk/books/v1/books';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { requireOrg } from '../auth/authenticate.js';
import type { GatewayDeps } from '../deps.js';
import { entryView } from '../ledger/entry-view.js';
import { EXPORT_FORMATS, exportFileName, type ExportFormat } from '../ledger/export-formats.js';
import type { ExportContext } from '../ledger/formats/export-context.js';
import { journalEntryPage, LEDGER_FILES } from '../ledger/ledger-answers.js';
import { ledgerParams, ledgerQuery, type LedgerQuery } from '../ledger/ledger-query.js';
import { readWholeRange } from '../ledger/read-whole-range.js';
import { route, type RouteDefinition } from './route-definition.js';
import { callOptions, orgRef } from './service-call.js';

/**
 * The organisation's journal, served by the books service: a page of entries as JSON, or the whole
 * date range as a file for accounting software (csv, quickbooks, xero, hledger, beancount).
 */
export function ledgerRoutes(deps: GatewayDeps): Record<string, RouteDefinition> {
  const listPage = (request: FastifyRequest, query: LedgerQuery) => async (page: { limit: number; cursor: string }) =>
    deps.services.books.listJournalEntries(
      { org: orgRef(requireOrg(request)), from: query.from ?? '', to: query.to ?? '', ...page },
      callOptions(request),
    );

  return {
    'GET /api/v1/orgs/:handle/ledger': route({
      params: ledgerParams,
      query: ledgerQuery,
      answer: journalEntryPage,
      files: LEDGER_FILES,
      handle: async ({ query, request, reply }) => {
        const list = listPage(request, query);
        if (query.format === 'json') {
          const page = await list({ limit: query.limit ?? 50, cursor: query.cursor ?? '' });
          return { data: page.entries.map(entryView), next_cursor: page.nextCursor || null };
        }
        const entries = await readWholeRange(list);
        return exportFile(reply, EXPORT_FORMATS[query.format], entries, {
          handle: requireOrg(request).handle,
          from: query.from,
          to: query.to,
          xeroTaxRate: query.xero_tax_rate,
        });
      },
    }),
  };
}

/** The file's body, with its media type and a download name. */
function exportFile(reply: FastifyReply, format: ExportFormat, entries: JournalEntry[], context: ExportContext): string {
  const body = format.render(entries, context);
  reply.type(format.contentType).header('content-disposition', `attachment; filename="${exportFileName(format, context)}"`);
  return body;
}
