/** The two providers (docs/decisions/0019-provider-payments.md), as the webhook paths and the admin route name them. */
export const PROVIDERS = ['card-provider', 'wallet-provider'] as const;
export type Provider = (typeof PROVIDERS)[number];

export const isProvider = (value: string): value is Provider => (PROVIDERS as readonly string[]).includes(value);

/** The header each provider signs with. */
export const SIGNATURE_HEADERS: Record<Provider, string> = {
  'card-provider': 'Stripe-Signature',
  'wallet-provider': 'X-Wallet-Provider-Signature',
};

/** The metadata key a checkout's public token travels under at the provider. */
export const CHECKOUT_METADATA_KEY = 'ctk_checkout';
