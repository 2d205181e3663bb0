/** What the service does, in one sentence: the descriptor, the OpenAPI document and llms.txt open with it. */
export const SERVICE_DESCRIPTION =
  'Commerce Toolkit: take payments straight into your own BSV wallet, keep books an accountant can import, sell at the counter and online, run loyalty and gift cards, charge per request with HTTP 402, and be found across a federation of instances.';

export type Capability = {
  id: string;
  title: string;
  maturity: 'live' | 'testnet' | 'preview';
  forYou: string;
  /**
   * For a capability built without an endpoint of its own: how it is used, naming the routes that serve it.
   * A capability with no endpoint and no such sentence is not built, and its descriptor says so.
   */
  usedThrough?: string;
};

/**
 * The six rungs and 24 capabilities of the spec (section 1), with the spec's maturities.
 * The endpoints of each capability come from the endpoint catalog (endpoints.ts).
 */
export const RUNGS: { id: string; title: string; step: number; promise: string; capabilities: Capability[] }[] = [
  {
    id: 'books',
    title: 'Books',
    step: 1,
    promise: 'Every sale lands in a standard journal that an accountant can import',
    capabilities: [
      {
        id: 'ledger',
        title: 'Ledger',
        maturity: 'live',
        forYou:
          'Each paid order becomes a balanced journal entry (money in, revenue, sales tax owed) that you can export for your accounting software.',
      },
      {
        id: 'sales_tax',
        title: 'Sales tax',
        maturity: 'live',
        forYou: 'Pick your jurisdiction once; every order carries the matching rate and the tax you collect is tracked as a liability.',
        usedThrough:
          'No endpoint of its own: choose a jurisdiction with PATCH /api/v1/organizations/:handle (GET /api/v1/tax/jurisdictions lists them), and every order carries its tax.',
      },
      {
        id: 'receipts',
        title: 'Receipts',
        maturity: 'live',
        forYou:
          'A receipt is written to the chain with the payment, so anyone can verify a purchase from its transaction id on any instance.',
      },
      { id: 'reports', title: 'Reports', maturity: 'live', forYou: 'Daily and monthly sales, your top items and your busy hours.' },
    ],
  },
  {
    id: 'in_person',
    title: 'In person',
    step: 2,
    promise: 'Take a payment at the counter with a phone',
    capabilities: [
      {
        id: 'receiving_address',
        title: 'Receiving address',
        maturity: 'live',
        forYou: 'Payments go straight to your own wallet. The service never holds your money or your keys.',
      },
      {
        id: 'pos',
        title: 'Point of sale',
        maturity: 'live',
        forYou: 'A menu, a cart and a QR code: the customer scans and pays, and your staff see the payment arrive.',
      },
      {
        id: 'pay_links',
        title: 'Pay links',
        maturity: 'live',
        forYou: 'A link or QR code anyone can pay, for a fixed amount or an amount the payer chooses.',
      },
      {
        id: 'cards_and_wallets',
        title: 'Cards and wallets',
        maturity: 'live',
        forYou:
          'Connect a card payment provider and a wallet provider so customers without bitcoin can pay too; their payments land in the same books.',
      },
    ],
  },
  {
    id: 'online',
    title: 'Online',
    step: 3,
    promise: 'Buy button on any website, or a built site',
    capabilities: [
      {
        id: 'commerce_api',
        title: 'Commerce API',
        maturity: 'live',
        forYou: 'An embeddable checkout for your own website: a Buy button, an inline QR code and a confirmation, with no redirect.',
      },
      {
        id: 'site_builder',
        title: 'Site builder',
        maturity: 'live',
        forYou: 'An editable website generated for you and published to a static site host.',
      },
      { id: 'open_sign', title: 'Open sign', maturity: 'live', forYou: 'Tell customers your shop is open right now.' },
      {
        id: 'federated_marketplace',
        title: 'Federated marketplace',
        maturity: 'live',
        forYou: 'Your catalog is an open feed that other instances can list, so customers find you across the federation.',
      },
    ],
  },
  {
    id: 'bitcoin_economics',
    title: 'Bitcoin economics',
    step: 4,
    promise: 'Rewards, stored value and stable money owned by customers',
    capabilities: [
      {
        id: 'loyalty',
        title: 'Loyalty',
        maturity: 'live',
        forYou: 'Stamp cards your customers keep in their wallet, optionally as on-chain stamps.',
      },
      {
        id: 'prepaid_cards',
        title: 'Prepaid cards',
        maturity: 'live',
        forYou: 'Stored-value and gift cards; redemptions draw down a liability in your books.',
      },
      {
        id: 'stable_value',
        title: 'Stable value',
        maturity: 'testnet',
        forYou: 'Price and settle in a dollar stablecoin on the same chain.',
      },
      {
        id: 'tokens',
        title: 'Tokens',
        maturity: 'preview',
        forYou: 'Mint a fungible token for memberships, credits or a community currency.',
      },
    ],
  },
  {
    id: 'p2p',
    title: 'Peer to peer',
    step: 5,
    promise: 'Get paid per request, directly',
    capabilities: [
      {
        id: 'paygate_402',
        title: 'Payment gate (HTTP 402)',
        maturity: 'live',
        forYou:
          'Put a price on a URL: a request without payment gets HTTP 402 and a payment request; a paid request passes. A few satoshis work.',
      },
      {
        id: 'paymail',
        title: 'Paymail',
        maturity: 'live',
        forYou: 'A payment name, like an email address, that resolves to a fresh payment address of yours.',
      },
      {
        id: 'keypair_identity',
        title: 'Key-pair identity',
        maturity: 'live',
        forYou: 'Your identity is a key you hold (did:key): sign in by signing a challenge, with no password.',
      },
      {
        id: 'wallet_api',
        title: 'Wallet API',
        maturity: 'live',
        forYou: 'List spendable coins and broadcast transactions you signed yourself; your signing key never leaves you.',
      },
    ],
  },
  {
    id: 'contracts',
    title: 'Contracts',
    step: 6,
    promise: 'Agreements that settle in the transaction',
    capabilities: [
      {
        id: 'escrow',
        title: 'Escrow',
        maturity: 'testnet',
        forYou: 'Buyer, seller and arbiter share a 2-of-3 lock; any two of them agreeing moves the money.',
      },
      {
        id: 'timelocked_refund',
        title: 'Time-locked refund',
        maturity: 'testnet',
        forYou: 'A refund is signed before the funds move and unlocks on a date.',
      },
      {
        id: 'referral_covenant',
        title: 'Referral covenant',
        maturity: 'preview',
        forYou: 'A referrer is paid automatically when their link sells, enforced by the script.',
      },
      {
        id: 'psbt',
        title: 'Partially signed transactions',
        maturity: 'testnet',
        forYou: "A transaction is built on the service, signed in your own wallet, and combined with your partners' signatures.",
      },
    ],
  },
];
