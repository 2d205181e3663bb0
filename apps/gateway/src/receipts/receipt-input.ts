/** Request examples of receipt verification (their schemas are still in routes/receipt-routes.ts). */

export const orderLinesExample = {
  lines: [{ item_id: '1b7e3c9a-5d2f-4a8e-9c6b-0e4a2f8d6c31', name: 'Oat milk latte', quantity: 1, unit_price_minor: 575, currency: 'USD' }],
};
