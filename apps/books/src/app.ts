import { fileURLToPath } from 'node:url';
import { defineService, watchParkedEvents } from '@ctk/shared';
import { configSchema } from './config.js';
import { createBalanceRepository } from './data/balance-repository.js';
import { createJournalRepository } from './data/journal-repository.js';
import { createParkedEventRepository } from './data/parked-event-repository.js';
import { createReportRepository } from './data/report-repository.js';
import { createTaxSettingsRepository } from './data/tax-settings-repository.js';
import { consumePaymentEvents } from './events/consume-payment-events.js';
import { PrismaClient } from './generated/prisma/client.js';
import { booksService } from './grpc/books-service.js';

export { configSchema, type Config } from './config.js';

/**
 * The books service: BooksService over gRPC on its own database (the journal), posting every payment
 * event it consumes as one balanced journal entry; the events it parks are shown in ctk_parked_events.
 */
export const service = defineService({
  name: 'books',
  configSchema,
  database: { prismaDir: fileURLToPath(new URL('../prisma', import.meta.url)), createClient: (adapter) => new PrismaClient({ adapter }) },
  build: ({ config, prisma, sql, logger, announcements }) => {
    const deps = {
      journal: createJournalRepository(prisma, sql),
      parked: createParkedEventRepository(prisma),
      reports: createReportRepository(prisma),
      balances: createBalanceRepository(prisma),
      taxSettings: createTaxSettingsRepository(prisma, sql, { announcements, logger }),
      maxExportEntries: config.BOOKS_EXPORT_MAX_ENTRIES,
      logger,
    };
    const unwatchParked = watchParkedEvents(() => deps.parked.count());
    return {
      grpc: booksService(deps),
      consume: (transport) => consumePaymentEvents(transport, deps),
      close: async () => unwatchParked(),
    };
  },
});
