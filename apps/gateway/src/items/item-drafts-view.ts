import type { AnalyzeItemsResponse } from '@ctk/proto/ctk/pos/v1/pos';
import type { z } from 'zod';
import type { itemDrafts } from './analyze-answers.js';

/** Item drafts as pos answers them, as the API shows them: each can be sent back as a new item. */
export function itemDraftsView(response: AnalyzeItemsResponse): z.output<typeof itemDrafts> {
  return {
    // pos bounds draft prices to an item's (10^12), well within a JSON number's exact integers.
    drafts: response.drafts.map((draft) => ({
      name: draft.name,
      description: draft.description,
      price_cents: Number(draft.priceCents),
      currency: draft.currency,
      category: draft.category,
      notes: draft.notes,
    })),
    source: response.source as 'text' | 'csv' | 'image',
    skipped: response.skipped,
  };
}
