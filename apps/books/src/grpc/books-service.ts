import type { BooksServiceImplementation, ExportJournalResponse } from '@ctk/proto/ctk/books/v1/books';
import { orgOf } from '@ctk/shared';
import type { BalanceRepository } from '../data/balance-repository.js';
import type { ReportRepository } from '../data/report-repository.js';
import type { TaxSettingsRepository } from '../data/tax-settings-repository.js';
import { exportJournal } from '../domain/export-journal.js';
import { getBusyHours } from '../domain/get-busy-hours.js';
import { getSalesReport } from '../domain/get-sales-report.js';
import { getSetup } from '../domain/get-setup.js';
import { getTaxRate } from '../domain/get-tax-rate.js';
import { getTaxSettings } from '../domain/get-tax-settings.js';
import { getTopItems } from '../domain/get-top-items.js';
import { getTrialBalance } from '../domain/get-trial-balance.js';
import { listJournalEntries } from '../domain/list-journal-entries.js';
import { listTaxJurisdictions } from '../domain/list-tax-jurisdictions.js';
import { setTaxSettings } from '../domain/set-tax-settings.js';
import type { PostingDeps } from '../domain/post-payment-event.js';
import { toJournalEntryMessage } from './journal-entry-message.js';

export type BooksDeps = PostingDeps & {
  reports: ReportRepository;
  balances: BalanceRepository;
  taxSettings: TaxSettingsRepository;
  maxExportEntries: number;
};

export function booksService(deps: BooksDeps): BooksServiceImplementation {
  return {
    async getSetup(request) {
      return { capabilities: await getSetup(deps.journal, deps.taxSettings, orgOf(request.org)) };
    },
    async listJournalEntries(request) {
      const page = await listJournalEntries(deps.journal, orgOf(request.org), request);
      return { entries: page.entries.map(toJournalEntryMessage), nextCursor: page.nextCursor };
    },
    /** The first message names the file; the file's bytes follow as books reads the journal. */
    async *exportJournal(request) {
      const file = await exportJournal(deps.journal, orgOf(request.org), request, deps.maxExportEntries);
      let first: Partial<ExportJournalResponse> | undefined = { mediaType: file.mediaType, fileName: file.fileName };
      for await (const chunk of file.chunks) {
        yield { ...first, chunk };
        first = undefined;
      }
      if (first) yield first;
    },
    async getTaxSettings(request) {
      return { settings: await getTaxSettings(deps.taxSettings, request) };
    },
    async setTaxSettings(request) {
      return { settings: await setTaxSettings(deps.taxSettings, request) };
    },
    async listTaxJurisdictions(request) {
      return { jurisdictions: listTaxJurisdictions(request) };
    },
    async getTaxRate(request) {
      return { jurisdiction: getTaxRate(request) };
    },
    async getSalesReport(request) {
      return getSalesReport(deps.reports, orgOf(request.org), request);
    },
    async getTopItems(request) {
      return getTopItems(deps.reports, orgOf(request.org), request);
    },
    async getBusyHours(request) {
      return getBusyHours(deps.reports, orgOf(request.org), request);
    },
    async getTrialBalance(request) {
      return getTrialBalance(deps.balances, orgOf(request.org), request);
    },
  };
}
