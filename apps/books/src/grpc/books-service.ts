import type { BooksServiceImplementation } from '@ctk/proto/ctk/books/v1/books';
import { AppError, orgOf } from '@ctk/shared';
import { getSetup } from '../domain/get-setup.js';
import { getTaxRate } from '../domain/get-tax-rate.js';
import { listJournalEntries } from '../domain/list-journal-entries.js';
import { listTaxJurisdictions } from '../domain/list-tax-jurisdictions.js';
import { postPaymentEvent, type PostingDeps } from '../domain/post-payment-event.js';
import { toJournalEntryMessage } from './journal-entry-message.js';

export function booksService(deps: PostingDeps): BooksServiceImplementation {
  return {
    async getSetup(request) {
      return { capabilities: await getSetup(deps.journal, orgOf(request.org)) };
    },
    async postPaymentEvent(request) {
      if (!request.event) throw new AppError('bad_request', 'The call must carry a payment event', { field: 'event' });
      return { outcome: await postPaymentEvent(deps, request.event) };
    },
    async listJournalEntries(request) {
      const page = await listJournalEntries(deps.journal, orgOf(request.org), request);
      return { entries: page.entries.map(toJournalEntryMessage), nextCursor: page.nextCursor };
    },
    async listTaxJurisdictions(request) {
      return { jurisdictions: listTaxJurisdictions(request) };
    },
    async getTaxRate(request) {
      return { jurisdiction: getTaxRate(request) };
    },
  };
}
