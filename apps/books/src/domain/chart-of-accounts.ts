/** Every organisation's chart of accounts, created in its books with its first journal entry. */
export const CHART_OF_ACCOUNTS = [
  { code: '1010', name: 'BSV wallet', type: 'asset' },
  { code: '1020', name: 'Provider clearing', type: 'asset' },
  { code: '1030', name: 'Stablecoin', type: 'asset' },
  { code: '2100', name: 'Sales tax payable', type: 'liability' },
  // Decision 0017 swapped these two codes (a migration moved every organisation's rows) before any entry used them.
  { code: '2200', name: 'Loyalty liability', type: 'liability' },
  // What prepaid and gift cards hold: always the sum of their live balances.
  { code: '2300', name: 'Gift card liability', type: 'liability' },
  // What a shop's credits tokens sold for money and not yet redeemed are worth (decision 0036).
  { code: '2350', name: 'Customer credits liability', type: 'liability' },
  // Tips are owed to staff: paid in with a sale, never revenue nor taxed.
  { code: '2400', name: 'Tips payable', type: 'liability' },
  { code: '4000', name: 'Revenue', type: 'income' },
  // Contra-revenue: refunds are kept apart from sales so both stay visible.
  { code: '4100', name: 'Refunds', type: 'expense' },
  // Contra-revenue: loyalty rewards given as a discount on a sale (decision 0023), so the books see them.
  { code: '4200', name: 'Loyalty rewards', type: 'expense' },
  // What referrers were paid of sales through their referral links, straight from the buyer's payment (decision 0040).
  { code: '5100', name: 'Referral commissions', type: 'expense' },
] as const satisfies readonly AccountSpec[];

export type AccountType = 'asset' | 'liability' | 'equity' | 'income' | 'expense';
export type AccountSpec = { code: string; name: string; type: AccountType };
export type AccountCode = (typeof CHART_OF_ACCOUNTS)[number]['code'];
