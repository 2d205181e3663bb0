import { z } from 'zod';
import { named, roleAnswer } from '../routes/answer-schema.js';

/** What the service information routes answer: the service descriptor and the capability maps (spec section 2). */

const authScheme = z.enum(['none', 'bearer', 'bearer_optional', 'webhook', 'commerce_key', 'paygate_key']);
const endpointEntry = z.object({
  path: z.string(),
  auth: authScheme,
  method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']),
  role: roleAnswer.nullable(),
});

const EXAMPLE_ENDPOINTS = [
  { path: '/api/v1', auth: 'none' as const, method: 'GET' as const, role: null },
  { path: '/api/v1/orgs/:handle/ledger', auth: 'bearer' as const, method: 'GET' as const, role: 'admin' as const },
];
const AUTH_EXAMPLE = {
  none: 'No credentials.',
  bearer: "A user API key: Authorization: Bearer <API_KEY>. The key acts as its user, with that user's organisation roles.",
  bearer_optional: 'Authorization: Bearer <API_KEY>, optional. An endpoint that acts on a user answers 401 without one.',
  webhook:
    'Provider signature: Stripe-Signature or X-Wallet-Provider-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>." and the raw body>.',
  commerce_key: "The merchant's commerce public key: x-commerce-key: <COMMERCE_PUBLIC_KEY>.",
  paygate_key: 'A payment-gate account key: Authorization: Bearer <PAYGATE_API_KEY>. Not a user API key.',
};

export const serviceDescriptorAnswer = named(
  'ServiceDescriptor',
  z.object({
    name: z.string(),
    version: z.string(),
    whoami: z.string(),
    auth: z.record(authScheme, z.string()),
    description: z.string(),
    endpoints: z.array(endpointEntry),
    roles: z.record(roleAnswer, z.array(roleAnswer)).describe('Which roles satisfy each required role'),
  }),
  {
    name: 'Commerce Toolkit',
    version: 'v1',
    whoami: 'GET /api/v1/me',
    auth: AUTH_EXAMPLE,
    description: 'Commerce Toolkit: take payments straight into your own BSV wallet, keep books an accountant can import, ...',
    endpoints: EXAMPLE_ENDPOINTS,
    roles: { owner: ['owner'], admin: ['owner', 'admin'], staff: ['owner', 'admin', 'staff'] },
  },
);

const capability = z.object({
  id: z.string(),
  title: z.string(),
  endpoints: z.array(endpointEntry),
  maturity: z.enum(['live', 'testnet', 'preview']),
  for_you: z.string(),
  note: z
    .string()
    .optional()
    .describe(
      'What this instance does of it when not all: not built (some or all endpoints answer 501), or how it is used without an endpoint',
    ),
});
const rung = z.object({
  id: z.string(),
  title: z.string(),
  step: z.number().int(),
  promise: z.string(),
  capabilities: z.array(capability),
});
const LEDGER_CAPABILITY = {
  id: 'ledger',
  title: 'Ledger',
  endpoints: [EXAMPLE_ENDPOINTS[1] as (typeof EXAMPLE_ENDPOINTS)[1]],
  maturity: 'live' as const,
  for_you:
    'Each paid order becomes a balanced journal entry (money in, revenue, sales tax owed) that you can export for your accounting software.',
};
const BOOKS_RUNG = {
  id: 'books',
  title: 'Books',
  step: 1,
  promise: 'Every sale lands in a standard journal that an accountant can import',
};
const MAP_LINKS = {
  llms_txt: '/llms.txt',
  personalized:
    'GET /api/v1/orgs/:handle/capabilities (bearer, staff): this map marked with what your organisation has set up and what to do next',
};

export const capabilityDescriptorAnswer = named(
  'CapabilityDescriptor',
  z.object({ description: z.string(), rungs: z.array(rung), llms_txt: z.string(), personalized: z.string() }),
  {
    description: 'Six rungs, each working on its own: climb as far as your business needs.',
    rungs: [{ ...BOOKS_RUNG, capabilities: [LEDGER_CAPABILITY] }],
    ...MAP_LINKS,
  },
);

const setUp = {
  set_up: z.boolean().nullable().describe('null when the service that knows did not answer'),
  next_step: z.string().nullable(),
};

export const personalizedCapabilitiesAnswer = named(
  'PersonalizedCapabilities',
  z.object({
    organization: z.string(),
    description: z.string(),
    rungs: z.array(rung.extend({ capabilities: z.array(capability.extend(setUp)) })),
    llms_txt: z.string(),
    personalized: z.string(),
    next: z.object({ capability: z.string(), next_step: z.string().nullable() }).nullable(),
  }),
  {
    organization: 'blue-bottle-cafe',
    description: 'Six rungs, each working on its own: climb as far as your business needs.',
    rungs: [
      {
        ...BOOKS_RUNG,
        capabilities: [
          { ...LEDGER_CAPABILITY, set_up: true, next_step: null },
          {
            id: 'sales_tax',
            title: 'Sales tax',
            endpoints: [],
            maturity: 'live',
            for_you:
              'Pick your jurisdiction once; every order carries the matching rate and the tax you collect is tracked as a liability.',
            set_up: false,
            next_step: 'Choose your tax jurisdiction: PATCH /api/v1/organizations/blue-bottle-cafe with jurisdiction.',
          },
        ],
      },
    ],
    ...MAP_LINKS,
    next: {
      capability: 'sales_tax',
      next_step: 'Choose your tax jurisdiction: PATCH /api/v1/organizations/blue-bottle-cafe with jurisdiction.',
    },
  },
);
