/**
 * Whether the organisation's prices include tax: its choice, else its jurisdiction's default, which books
 * answered when the jurisdiction was chosen and is stored beside it (false without a jurisdiction). The
 * rule for the default is books' (its tax table), never the gateway's (decision 0004).
 */
export function pricesIncludeTax(org: { pricesIncludeTax: boolean | null; jurisdictionPricesIncludeTax: boolean }): boolean {
  return org.pricesIncludeTax ?? org.jurisdictionPricesIncludeTax;
}
