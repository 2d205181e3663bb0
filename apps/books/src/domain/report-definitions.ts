/**
 * What the reports count, by journal entry type. Sales are revenue recognised: a payment received or a
 * gift card spent. A refund is shown apart from sales, and so is a gift card use undone (its order expired
 * or was cancelled: books post it to 4100 Refunds too). Selling a gift card is not a sale (the money is
 * owed back as goods until the card is spent), so reports show it apart as gift cards sold. A tip paid
 * with a sale is owed to staff (2400 Tips payable): sales and refunds leave it out and reports show it
 * apart as tips. An order paid in parts (gift cards, then money) is several sale entries of one source:
 * it counts as one order. Credits (decision 0036) count as gift cards do: redeemed is a sale, restored a
 * refund; sold is neither (reports leave it out: it is in the journal, 2350).
 */
export const SALES = ['payment.received', 'prepaid.redeemed', 'credits.redeemed'] as const;
export const REFUNDS = ['payment.refunded', 'prepaid.restored', 'credits.restored'] as const;
export const GIFT_CARD_SALE = 'prepaid.issued';
