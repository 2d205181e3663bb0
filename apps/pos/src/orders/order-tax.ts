import type { BooksServiceDefinition } from '@ctk/proto/ctk/books/v1/books';
import { TAX_SETTINGS_CHANGED_SUBJECT, type Announcements, type GrpcClient, type Org } from '@ctk/shared';

/**
 * How the organisation's orders are taxed now, as books keeps it (decision 0028): its jurisdiction (empty:
 * none, so untaxed), whether its prices include tax, and the jurisdiction's standard rate in force today.
 * Settings and rate come together, so a change of jurisdiction or of the table applies to the next order.
 */
export type OrderTax = { jurisdiction: string; pricesIncludeTax: boolean; standardRate: { code: string; rate: string } | null };

/** Each organisation's tax, asked of books once and kept (decision 0053). */
export type OrderTaxes = {
  of(org: Org): Promise<OrderTax>;
  /** Stops listening to books; nothing is kept after. */
  stop(): void;
};

/** Organisations kept at once: past them the one kept longest is forgotten. */
const MAX_KEPT = 10_000;
const DAY_MS = 24 * 60 * 60 * 1000;

type Kept = { tax: OrderTax; until: number };

/**
 * Asks books for an organisation's tax on its first order and keeps the answer for `keepSeconds` (0: never
 * kept), and never past midnight UTC, when books's rate in force may change with the date. What is kept is
 * forgotten as soon as books announces that the organisation's settings changed, and all of it when
 * announcements may have been missed (the broker's connection lost); nothing is kept or used while pos is not
 * listening, nor kept from an answer that an announcement overtook.
 */
export function orderTaxes(options: {
  books: GrpcClient<typeof BooksServiceDefinition>;
  announcements: Announcements;
  keepSeconds: number;
}): OrderTaxes {
  const { books, keepSeconds } = options;
  const kept = new Map<string, Kept>();
  // Counts what was heard: an answer asked for before an announcement may be the settings it replaced.
  let heard = 0;
  const listening = options.announcements.listen(TAX_SETTINGS_CHANGED_SUBJECT, {
    heard(data) {
      heard += 1;
      kept.delete(Buffer.from(data).toString('utf8'));
    },
    missed() {
      heard += 1;
      kept.clear();
    },
  });

  async function ask(org: Org): Promise<OrderTax> {
    const [settings] = (await books.getTaxSettings({ organizationIds: [org.id], at: '' })).settings;
    if (!settings) throw new Error(`books answered no tax settings for ${org.id}`);
    return {
      jurisdiction: settings.jurisdiction,
      pricesIncludeTax: settings.pricesIncludeTax,
      standardRate: settings.rate ? { code: settings.rate.code, rate: settings.rate.rate } : null,
    };
  }

  return {
    async of(org) {
      const now = Date.now();
      // Not listening, changes go by unheard: what was kept before cannot be trusted after.
      if (!listening.listening()) kept.clear();
      const found = kept.get(org.id);
      if (found && found.until > now) return found.tax;
      const before = heard;
      const tax = await ask(org);
      if (keepSeconds > 0 && heard === before && listening.listening()) {
        kept.delete(org.id);
        kept.set(org.id, { tax, until: Math.min(now + keepSeconds * 1000, (Math.floor(now / DAY_MS) + 1) * DAY_MS) });
        if (kept.size > MAX_KEPT) kept.delete(kept.keys().next().value!);
      }
      return tax;
    },
    stop() {
      listening.stop();
      kept.clear();
    },
  };
}
