import { z } from 'zod';
import { EXAMPLE_USER_ID, issuedApiKey } from '../access/access-answers.js';
import { isoTime, named, pageOf, roleAnswer } from '../routes/answer-schema.js';

/** What onboarding, the organisation routes and `GET /api/v1/me` answer, with Blue Bottle Cafe as the example. */

const EXAMPLE_ORGANIZATION = {
  id: '9b2e4d71-5c3a-4f86-a0d2-7e1b6c9f3a58',
  handle: 'blue-bottle-cafe',
  name: 'Blue Bottle Cafe',
  jurisdiction: 'US-CA',
  prices_include_tax: false,
  receiving_address: '1NjCAJjzaniT3T22jyfU6NiWoPssArS4tR',
  paymail: 'cafe@example.com',
  commerce_public_key: null,
  wallet_xpub: null,
  identity_public_key: '0244b85467f6a0495e5c9d48748a2dafedee882b1f167cecdb76596ae6179ade54',
  avatar_url: 'https://bluebottle.example/logo.png',
  category: 'cafe',
  location: { latitude: 37.7764, longitude: -122.4231 },
  created_at: '2026-03-02T08:15:30.000Z',
};

export const organization = named(
  'Organization',
  z.object({
    id: z.uuid(),
    handle: z.string(),
    name: z.string(),
    jurisdiction: z.string().nullable(),
    prices_include_tax: z.boolean(),
    receiving_address: z.string().nullable(),
    paymail: z.string().nullable(),
    commerce_public_key: z.string().nullable(),
    wallet_xpub: z.string().nullable(),
    identity_public_key: z.string().nullable(),
    avatar_url: z.string().nullable(),
    category: z.string().nullable(),
    location: z.object({ latitude: z.number(), longitude: z.number() }).nullable(),
    created_at: isoTime,
  }),
  EXAMPLE_ORGANIZATION,
);
export type OrganizationAnswer = z.infer<typeof organization>;

/** An organisation with the caller's role in it. */
export const memberOrganization = named('MemberOrganization', organization.extend({ role: roleAnswer }), {
  ...EXAMPLE_ORGANIZATION,
  role: 'owner',
});
export const memberOrganizationPage = pageOf('MemberOrganization', memberOrganization);

export const onboarded = named(
  'Onboarded',
  z.object({
    user: z.object({ id: z.uuid() }),
    organization,
    role: z.literal('owner'),
    api_key: issuedApiKey.optional().describe('Only when onboarding without a key: the new user’s first API key, shown this once'),
  }),
  {
    user: { id: EXAMPLE_USER_ID },
    organization: EXAMPLE_ORGANIZATION,
    role: 'owner',
    api_key: {
      id: 'c4a8e2f6-1b3d-4e5a-8f7c-9d0b2a6e4c13',
      name: 'onboarding',
      prefix: 'ctk_sk_Q2Fm',
      key: 'ctk_sk_Q2FmZUJsdWVCb3R0bGUtc2VjcmV0LWtleS0wMDAx',
      created_at: '2026-03-02T08:15:30.000Z',
    },
  },
);

export const me = named(
  'Me',
  z.object({
    id: z.uuid(),
    name: z.string().nullable(),
    email: z.string().nullable(),
    did: z.string().nullable(),
    created_at: isoTime,
    api_key: z.object({ id: z.uuid(), name: z.string(), prefix: z.string() }).describe('The key this request was made with'),
    organizations: z.array(z.object({ handle: z.string(), name: z.string(), role: roleAnswer })),
  }),
  {
    id: EXAMPLE_USER_ID,
    name: 'Ann Lee',
    email: 'ann@bluebottle.example',
    did: null,
    created_at: '2026-03-02T08:15:30.000Z',
    api_key: { id: 'c4a8e2f6-1b3d-4e5a-8f7c-9d0b2a6e4c13', name: 'onboarding', prefix: 'ctk_sk_Q2Fm' },
    organizations: [{ handle: 'blue-bottle-cafe', name: 'Blue Bottle Cafe', role: 'owner' }],
  },
);
