import type { AppName } from '@ctk/shared';

/**
 * The endpoint catalog: every route of the API, with the method, path, auth scheme and role of the
 * spec (section 4), the capability it belongs to and the service that serves it. Routes, the service
 * and capability descriptors, the OpenAPI document and llms.txt are all produced from this table.
 */
export type AuthScheme = 'none' | 'bearer' | 'bearer_optional' | 'webhook' | 'commerce_key' | 'paygate_key';
export const ROLES = ['owner', 'admin', 'staff'] as const;
export type Role = (typeof ROLES)[number];
export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export type Endpoint = {
  method: Method;
  path: string;
  auth: AuthScheme;
  role: Role | null;
  capability: string | null;
  service: AppName;
  summary: string;
  /** Not in the spec's tables. */
  extra?: true;
};

/**
 * A row of the catalog: the route as route groups key it (`'GET /api/v1/me'`), who may call it, its
 * capability, the service that serves it and its summary. Who may call it is an auth scheme, or a role:
 * a user's API key (`bearer`) with that role in the organisation the request names.
 */
type Row = [route: `${Method} ${string}`, access: AuthScheme | Role, capability: string | null, service: AppName, summary: string];

const SPEC_ROWS: Row[] = [
  // 4.1 Service information
  ['GET /api/v1', 'none', null, 'gateway', 'Service descriptor: auth schemes, roles and every endpoint'],
  ['GET /api/v1/capabilities', 'none', null, 'gateway', 'Capability descriptor: the six rungs and their capabilities'],
  [
    'GET /api/v1/orgs/:handle/capabilities',
    'staff',
    null,
    'gateway',
    'The capability map marked with what this organisation has set up and what to do next',
  ],
  ['GET /api/v1/me', 'bearer', null, 'gateway', 'The caller: user, organisations and roles'],
  // 4.2 Webhooks
  ['POST /api/webhooks/card-provider', 'webhook', 'cards_and_wallets', 'commerce', 'Inbound card payment provider event'],
  ['POST /api/webhooks/wallet-provider', 'webhook', 'cards_and_wallets', 'commerce', 'Inbound wallet provider event'],
  // 4.3 Paymail
  ['GET /api/v1/bsvalias/id/:paymail', 'none', 'paymail', 'gateway', 'Paymail public key infrastructure (pki)'],
  ['GET /api/v1/bsvalias/address/:paymail', 'none', 'paymail', 'p2p', 'Paymail payment destination'],
  ['POST /api/v1/bsvalias/address/:paymail', 'none', 'paymail', 'p2p', 'Paymail payment destination (sender-signed request)'],
  ['GET /api/v1/bsvalias/public-profile/:paymail', 'none', 'paymail', 'gateway', 'Paymail public profile'],
  ['GET /api/v1/bsvalias/verifypubkey/:paymail/:pubkey', 'none', 'paymail', 'gateway', 'Paymail public key verification'],
  // 4.4 Point of sale: public reads
  ['GET /api/pos/cards/:card_id', 'none', 'cards_and_wallets', 'pos', 'A point-of-sale card'],
  ['GET /api/pos/cards/address/:address', 'none', 'cards_and_wallets', 'pos', 'A point-of-sale card by address'],
  ['GET /api/pos/prepaid-cards/lookup/:identifier', 'none', 'prepaid_cards', 'pos', 'Look up a prepaid card'],
  ['GET /api/pos/prepaid-cards/:id', 'none', 'prepaid_cards', 'pos', 'A prepaid card'],
  ['GET /api/pos/loyalty-cards/lookup/:identifier', 'none', 'loyalty', 'pos', 'Look up a loyalty card'],
  ['GET /api/pos/loyalty-cards/:id', 'none', 'loyalty', 'pos', 'A loyalty card'],
  ['GET /api/pos/orders/:order_number', 'none', 'pos', 'pos', 'A point-of-sale order'],
  // 4.5 Point of sale: staff operations
  ['POST /api/pos/cards', 'staff', 'cards_and_wallets', 'pos', 'Issue a point-of-sale card'],
  ['GET /api/pos/shops/:shop_id/cards', 'staff', 'cards_and_wallets', 'pos', "A shop's point-of-sale cards"],
  ['POST /api/pos/prepaid-cards', 'staff', 'prepaid_cards', 'pos', 'Issue a prepaid card'],
  ['POST /api/pos/prepaid-cards/:id/use', 'staff', 'prepaid_cards', 'pos', 'Redeem value from a prepaid card'],
  ['POST /api/pos/prepaid-cards/:id/transfer', 'staff', 'prepaid_cards', 'pos', 'Transfer a prepaid card'],
  ['POST /api/pos/loyalty-cards', 'staff', 'loyalty', 'pos', 'Issue a loyalty card'],
  ['POST /api/pos/loyalty-cards/:id/stamp', 'staff', 'loyalty', 'pos', 'Stamp a loyalty card'],
  ['POST /api/pos/loyalty-cards/:id/redeem', 'staff', 'loyalty', 'pos', 'Redeem a loyalty reward'],
  ['POST /api/pos/loyalty-cards/:id/transfer', 'staff', 'loyalty', 'pos', 'Transfer a loyalty card'],
  ['POST /api/pos/orders', 'staff', 'pos', 'pos', 'Create a point-of-sale order'],
  ['POST /api/pos/orders/:order_number/confirm', 'staff', 'pos', 'pos', 'Confirm a point-of-sale order'],
  // 4.6 Key-based sign-in
  ['POST /api/auth/challenge', 'none', 'keypair_identity', 'gateway', 'Ask for a sign-in challenge for a did:key'],
  ['POST /api/auth/verify', 'none', 'keypair_identity', 'gateway', 'Answer the challenge with a signature; returns an API key'],
  // 4.7 Payment gate (HTTP 402)
  ['GET /api/v1/402/resources', 'paygate_key', 'paygate_402', 'p2p', 'Priced resources of the key holder'],
  ['POST /api/v1/402/resources', 'paygate_key', 'paygate_402', 'p2p', 'Put a price on a URL'],
  ['DELETE /api/v1/402/resources/:id', 'paygate_key', 'paygate_402', 'p2p', 'Remove a priced resource'],
  [
    'POST /api/v1/402/check',
    'paygate_key',
    'paygate_402',
    'p2p',
    'Check a request against the gate (402 with a payment request when unpaid)',
  ],
  ['POST /api/v1/402/verify', 'paygate_key', 'paygate_402', 'p2p', 'Verify a payment for a priced resource'],
  ['GET /api/v1/402/payments', 'paygate_key', 'paygate_402', 'p2p', 'Payments received through the gate'],
  // 4.8 User wallet and cards
  ['GET /api/v1/organizations', 'bearer', 'receiving_address', 'gateway', "The caller's organisations"],
  ['GET /api/v1/wallet/prepaid-cards', 'bearer', 'prepaid_cards', 'pos', "The caller's prepaid cards"],
  ['GET /api/v1/wallet/loyalty-cards', 'bearer', 'loyalty', 'pos', "The caller's loyalty cards"],
  ['POST /api/v1/prepaid-cards/purchase', 'bearer', 'prepaid_cards', 'pos', 'Buy a prepaid card'],
  ['POST /api/v1/loyalty-cards', 'bearer', 'loyalty', 'pos', 'Join a loyalty programme'],
  // 4.9 Onboarding and organisations
  [
    'POST /api/v1/onboard',
    'bearer_optional',
    'receiving_address',
    'gateway',
    'Onboard: a user (without a key), an organisation and the owner membership; returns the API key once',
  ],
  ['POST /api/v1/organizations', 'bearer_optional', 'receiving_address', 'gateway', 'Create an organisation for the caller'],
  ['GET /api/v1/organizations/:handle', 'staff', 'receiving_address', 'gateway', 'An organisation'],
  // 4.10 Organisation management
  ['POST /api/v1/orgs/:handle/items', 'staff', 'pos', 'pos', 'Create an item'],
  ['GET /api/v1/orgs/:handle/items', 'staff', 'pos', 'pos', 'List items'],
  ['GET /api/v1/orgs/:handle/menu', 'staff', 'pos', 'pos', 'The menu'],
  ['PUT /api/v1/orgs/:handle/menu', 'staff', 'pos', 'pos', 'Replace the menu'],
  ['GET /api/v1/orgs/:handle/ledger', 'admin', 'ledger', 'books', 'Journal entries'],
  ['PUT /api/v1/orgs/:handle/tickets/catalog', 'admin', 'commerce_api', 'commerce', 'Replace the ticket catalog'],
  ['GET /api/v1/orgs/:handle/tickets/orders', 'admin', 'commerce_api', 'commerce', 'Ticket orders'],
  // 4.11 Federation and feeds
  ['GET /api/v1/peers', 'none', 'federated_marketplace', 'federation', 'Known peer instances'],
  ['POST /api/v1/peers/exchange', 'none', 'federated_marketplace', 'federation', 'Exchange peer lists'],
  ['GET /api/v1/feeds', 'bearer_optional', 'federated_marketplace', 'federation', 'Catalog feeds'],
  ['POST /api/v1/feeds', 'bearer_optional', 'federated_marketplace', 'federation', 'Publish or list a feed'],
  // 4.12 Open sign
  ['GET /api/v1/shops/:org_handle/sign', 'none', 'open_sign', 'federation', 'Whether a shop is open right now'],
  // 4.13 Merchant commerce
  ['GET /api/v1/commerce/:merchant_handle', 'commerce_key', 'commerce_api', 'commerce', 'The merchant, for an embedded checkout'],
  ['GET /api/v1/commerce/:merchant_handle/catalog', 'commerce_key', 'commerce_api', 'commerce', "The merchant's catalog"],
  ['GET /api/v1/commerce/:merchant_handle/catalog/:id', 'commerce_key', 'commerce_api', 'commerce', 'One catalog item'],
  ['POST /api/v1/commerce/:merchant_handle/checkout', 'commerce_key', 'commerce_api', 'commerce', 'Start a checkout'],
  [
    'GET /api/v1/commerce/:merchant_handle/checkout/:public_token/status',
    'commerce_key',
    'commerce_api',
    'commerce',
    "Poll a checkout's status",
  ],
  ['GET /api/v1/commerce/:merchant_handle/tickets', 'commerce_key', 'commerce_api', 'commerce', "The merchant's tickets"],
  ['POST /api/v1/commerce/:merchant_handle/tickets/checkout', 'commerce_key', 'commerce_api', 'commerce', 'Start a ticket checkout'],
  // 4.14 Discovery
  ['GET /api/v1/discover/nearby', 'bearer_optional', 'federated_marketplace', 'federation', 'Merchants near a place'],
  ['GET /api/v1/discover/search', 'bearer_optional', 'federated_marketplace', 'federation', 'Search merchants'],
  ['GET /api/v1/discover/featured', 'bearer_optional', 'federated_marketplace', 'federation', 'Featured merchants'],
  ['GET /api/v1/discover/categories', 'bearer_optional', 'federated_marketplace', 'federation', 'Merchant categories'],
  ['GET /api/v1/discover/categories/:category', 'bearer_optional', 'federated_marketplace', 'federation', 'Merchants in a category'],
  [
    'GET /api/v1/discover/merchants/:merchant_handle',
    'bearer_optional',
    'federated_marketplace',
    'federation',
    "A merchant's public profile",
  ],
  // 4.15 Wallet passes
  ['GET /api/v1/passes/coffee/:card_id/apple', 'bearer_optional', 'loyalty', 'pos', 'A coffee loyalty card as an Apple Wallet pass'],
  ['GET /api/v1/passes/coffee/:card_id/google', 'bearer_optional', 'loyalty', 'pos', 'A coffee loyalty card as a Google Wallet pass'],
  // 4.16 Items, pins, wallet, stablecoin, chain passthrough
  ['POST /api/v1/items/analyze', 'bearer_optional', 'pos', 'pos', 'Suggest item details from a description or photo'],
  ['POST /api/v1/items', 'bearer_optional', 'pos', 'pos', 'Create an item'],
  ['POST /api/v1/pins', 'bearer_optional', 'open_sign', 'federation', 'Pin a shop on the map'],
  ['GET /api/v1/pins/nearby', 'bearer_optional', 'open_sign', 'federation', 'Pins near a place'],
  ['GET /api/v1/wallet/utxos', 'bearer_optional', 'wallet_api', 'p2p', "An address's spendable outputs"],
  ['POST /api/v1/wallet/broadcast', 'bearer_optional', 'wallet_api', 'p2p', 'Broadcast a transaction the caller signed'],
  ['POST /api/v1/stablecoin/intents', 'bearer_optional', 'stable_value', 'commerce', 'Create a stablecoin payment intent'],
  ['GET /api/v1/stablecoin/intents/:payment_id', 'bearer_optional', 'stable_value', 'commerce', 'A stablecoin payment intent'],
  [
    'POST /api/v1/stablecoin/intents/:payment_id/settle',
    'bearer_optional',
    'stable_value',
    'commerce',
    'Settle a stablecoin payment intent',
  ],
  ['GET /api/v1/bsv/*path', 'bearer_optional', 'wallet_api', 'p2p', 'Chain API passthrough (reads)'],
  ['POST /api/v1/bsv/*path', 'bearer_optional', 'wallet_api', 'p2p', 'Chain API passthrough (broadcast)'],
];

/**
 * Rows not in the spec: access management the spec leaves to a settings page, the list of tax
 * jurisdictions an organisation chooses from, the reports, receipt verification, the paymail capability
 * document and P2P routes, the order routes beyond the spec's three, pay links, and the loyalty program
 * and stamp verification, a ticket's check-in and QR code, and the payment gate's published credential keys.
 */
const EXTRA_ROWS: Row[] = [
  // The counter's cart priced as the order would be (decision 0023).
  ['POST /api/pos/orders/quote', 'staff', 'pos', 'pos', 'Price a point-of-sale order without creating it'],
  [
    'GET /api/pos/shops/:shop_id/cards/address/:address',
    'staff',
    'cards_and_wallets',
    'pos',
    'What an address holds at the shop, and its POS card there if any',
  ],
  ['GET /api/v1/me/api-keys', 'bearer', null, 'gateway', "The caller's API keys (never the secrets)"],
  ['POST /api/v1/me/api-keys', 'bearer', null, 'gateway', 'Create an API key; the key is returned once'],
  ['DELETE /api/v1/me/api-keys/:id', 'bearer', null, 'gateway', "Revoke one of the caller's API keys"],
  [
    'PATCH /api/v1/organizations/:handle',
    'admin',
    'receiving_address',
    'gateway',
    'Update an organisation: name, receiving address, tax jurisdiction, whether prices include tax, paymail alias, location, category',
  ],
  ['GET /api/v1/orgs/:handle/members', 'staff', null, 'gateway', 'Members of an organisation and their roles'],
  ['POST /api/v1/orgs/:handle/members', 'admin', null, 'gateway', 'Add a member with a role'],
  ['PATCH /api/v1/orgs/:handle/members/:user_id', 'admin', null, 'gateway', "Change a member's role"],
  ['DELETE /api/v1/orgs/:handle/members/:user_id', 'admin', null, 'gateway', 'Remove a member'],
  ['POST /api/v1/orgs/:handle/commerce-key', 'admin', 'commerce_api', 'gateway', 'Create or rotate the commerce public key'],
  ['GET /api/v1/orgs/:handle/paygate-keys', 'admin', 'paygate_402', 'gateway', 'Payment-gate account keys (never the secrets)'],
  [
    'POST /api/v1/orgs/:handle/paygate-keys',
    'admin',
    'paygate_402',
    'gateway',
    'Create a payment-gate account key; the key is returned once',
  ],
  ['DELETE /api/v1/orgs/:handle/paygate-keys/:id', 'admin', 'paygate_402', 'gateway', 'Revoke a payment-gate account key'],
  // Reports from the books (the spec names the capability but gives it no endpoint).
  [
    'GET /api/v1/orgs/:handle/reports/sales',
    'admin',
    'reports',
    'books',
    'Sales per local day or month: orders, gross, tax, net, refunds, gift cards sold',
  ],
  ['GET /api/v1/orgs/:handle/reports/top-items', 'admin', 'reports', 'books', 'Best-selling items of a date range, net of refunds'],
  ['GET /api/v1/orgs/:handle/reports/busy-hours', 'admin', 'reports', 'books', 'Sales per local hour of the day'],
  [
    'GET /api/v1/orgs/:handle/reports/trial-balance',
    'admin',
    'reports',
    'books',
    'Trial balance at the end of a date: every account in the debit or credit column, equal totals',
  ],
  [
    'GET /api/v1/orgs/:handle/reports/account-balances',
    'admin',
    'reports',
    'books',
    "Every account's debits, credits and balance at the end of a date",
  ],
  // Orders at the counter beyond the spec's three routes (decision 0015): the customer's BIP270 request,
  // payment, QR and live status are public by order number; cancelling is staff's.
  [
    'GET /api/pos/orders/:order_number/payment-request',
    'none',
    'pos',
    'pos',
    'The BIP270 payment request of an open order: its output for what is due, then the receipt output',
  ],
  ['POST /api/pos/orders/:order_number/payment', 'none', 'pos', 'pos', 'Pay an order with a BIP270 Payment; answers the PaymentACK'],
  ['POST /api/pos/orders/:order_number/cancel', 'staff', 'pos', 'pos', 'Cancel an open order that nothing has paid'],
  ['GET /api/pos/orders/:order_number/qr', 'none', 'pos', 'pos', "The order's payment URI as a QR code (SVG or PNG)"],
  ['GET /api/pos/orders/:order_number/events', 'none', 'pos', 'pos', 'The order as Server-Sent Events at each change, until it is final'],
  // Pay links (the spec: "a link or QR that anyone can pay"; no endpoint; decision 0015): staff make, list and
  // disable them; the link, its QR and opening an order for it are public by link id.
  [
    'POST /api/v1/orgs/:handle/pay-links',
    'staff',
    'pay_links',
    'pos',
    'Make a pay link: a fixed amount or the payer’s choice within bounds',
  ],
  ['GET /api/v1/orgs/:handle/pay-links', 'staff', 'pay_links', 'pos', "The organisation's pay links with their uses"],
  ['POST /api/v1/orgs/:handle/pay-links/:id/disable', 'staff', 'pay_links', 'pos', 'Disable a pay link: it takes no new payments'],
  ['GET /api/v1/pay-links/:id', 'none', 'pay_links', 'pos', "A pay link's signed terms and whether it takes a payment"],
  [
    'POST /api/v1/pay-links/:id/orders',
    'none',
    'pay_links',
    'pos',
    'Open an order to pay a pay link: its amount, or one chosen within its bounds',
  ],
  ['GET /api/v1/pay-links/:id/qr', 'none', 'pay_links', 'pos', "The pay link's page URL as a QR code (SVG or PNG)"],
  // Loyalty beyond the spec's card routes (decision 0017): the program staff read and admins replace, and a
  // stamp verified from the transaction that paid its order.
  [
    'GET /api/v1/orgs/:handle/loyalty-program',
    'staff',
    'loyalty',
    'pos',
    "The organisation's loyalty program: what earns a stamp, how many make a reward, what the reward is",
  ],
  ['PUT /api/v1/orgs/:handle/loyalty-program', 'admin', 'loyalty', 'pos', 'Replace the loyalty program as a whole'],
  [
    'GET /api/pos/loyalty-stamps/:txid',
    'none',
    'loyalty',
    'pos',
    'Verify a loyalty stamp from the txid that paid its order: mined, and its receipt names the merchant and the stamped order',
  ],
  // Receipts (the spec: "anyone can verify a purchase from its transaction id on any instance"; no endpoint).
  [
    'GET /api/v1/receipts/:txid',
    'none',
    'receipts',
    'p2p',
    'Verify a purchase from its txid: the receipt on chain (merchant, reference, lines hash), what it paid, whether it is mined',
  ],
  [
    'POST /api/v1/receipts/:txid',
    'none',
    'receipts',
    'p2p',
    "The same, also checking the order lines the caller has against the receipt's lines hash",
  ],
  // Paymail beyond the spec's five routes (decision 0007): the capability document and the P2P capabilities.
  [
    'GET /.well-known/bsvalias',
    'none',
    'paymail',
    'gateway',
    'Paymail capability document (bsvalias): where each paymail capability answers',
  ],
  [
    'POST /api/v1/bsvalias/p2p-payment-destination/:paymail',
    'none',
    'paymail',
    'p2p',
    'Paymail P2P payment destination (2a40af698840): outputs and a reference for an amount',
  ],
  [
    'POST /api/v1/bsvalias/receive-transaction/:paymail',
    'none',
    'paymail',
    'p2p',
    'Paymail P2P receive transaction (5f1323cddf31): submit the signed payment',
  ],
  ['POST /api/v1/bsvalias/beef/:paymail', 'none', 'paymail', 'p2p', 'Paymail P2P receive transaction as BEEF (5c55a7fdb7bb)'],
  // Provider payments (decision 0019): the organisation's provider secrets, and the events received.
  [
    'PUT /api/v1/orgs/:handle/payment-providers/:provider',
    'admin',
    'cards_and_wallets',
    'commerce',
    "Set the organisation's webhook signing secret of a payment provider (never answered back)",
  ],
  [
    'GET /api/v1/orgs/:handle/payment-providers/events',
    'admin',
    'cards_and_wallets',
    'commerce',
    'Provider events received, newest first: applied, parked (kept, not applied) or ignored',
  ],
  [
    'POST /api/v1/orgs/:handle/payment-providers/events/:id/apply',
    'admin',
    'cards_and_wallets',
    'commerce',
    'Apply a parked provider event now, as its delivery would be (its checkout exists now, or pos answers); idempotent',
  ],
  // Under no capability: the spec gives sales_tax no endpoint, and the descriptor keeps its list empty.
  [
    'GET /api/v1/tax/jurisdictions',
    'none',
    null,
    'books',
    'Tax jurisdictions an organisation can choose, with the rate in force (filter by country)',
  ],
  // Tickets beyond the spec's four routes (decision 0020): the door's check-in, and a ticket's code as a QR.
  [
    'POST /api/v1/orgs/:handle/tickets/check-in',
    'staff',
    'commerce_api',
    'commerce',
    'Check a paid ticket in at the door by its code: once (a second time is already_checked_in)',
  ],
  ['GET /api/v1/tickets/:code/qr', 'none', 'commerce_api', 'commerce', "A ticket's code as a QR code (SVG or PNG)"],
  // The payment gate beyond the spec's six routes (decision 0021): what a resource server's middleware checks
  // credentials with, locally, without a call per request.
  [
    'GET /.well-known/ctk-paygate.json',
    'none',
    'paygate_402',
    'p2p',
    'The public keys payment-gate credentials are signed with, and the revoked resources and credentials',
  ],
];

function toEndpoint([route, access, capability, service, summary]: Row, extra: boolean): Endpoint {
  const [method, path] = route.split(' ') as [Method, string];
  const role = (ROLES as readonly string[]).includes(access) ? (access as Role) : null;
  const auth = role ? 'bearer' : (access as AuthScheme);
  return { method, path, auth, role, capability, service, summary, ...(extra ? { extra: true as const } : {}) };
}

export const ENDPOINTS: readonly Endpoint[] = [
  ...SPEC_ROWS.map((row) => toEndpoint(row, false)),
  ...EXTRA_ROWS.map((row) => toEndpoint(row, true)),
];

export function endpointKey(endpoint: Pick<Endpoint, 'method' | 'path'>): string {
  return `${endpoint.method} ${endpoint.path}`;
}
