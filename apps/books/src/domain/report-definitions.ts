/**
 * What the reports count, by journal entry type. Sales are revenue recognised: a payment received or a
 * gift card spent. A refund is shown apart from sales. Selling a gift card is not a sale (the money is
 * owed back as goods until the card is spent), so reports show it apart as gift cards sold. A tip paid
 * with a sale is owed to staff (2400 Tips payable): sales leave it out and reports show it apart as tips.
 */
export const SALES = ['payment.received', 'prepaid.redeemed'] as const;
export const REFUND = 'payment.refunded';
export const GIFT_CARD_SALE = 'prepaid.issued';
