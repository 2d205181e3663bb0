/** Request examples of the item routes (their schemas are still in routes/item-routes.ts). */

export const newItemExample = {
  name: 'Oat milk latte',
  description: 'Double shot, 12 oz',
  price_cents: 575,
  currency: 'USD',
  category: 'coffee',
  sku: 'LAT-OAT-12',
};
