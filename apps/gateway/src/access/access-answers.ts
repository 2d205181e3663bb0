import { z } from 'zod';
import { isoTime, named, pageOf, roleAnswer } from '../routes/answer-schema.js';

/**
 * What the access routes answer: API keys, members and roles, the organisation's commerce and
 * payment-gate keys. Secrets appear only in the answer that creates them.
 */

export const EXAMPLE_USER_ID = '3f6c2a9e-8d41-4b7a-9c15-2e7f0d6b8a14';
export const EXAMPLE_API_KEY = 'ctk_sk_Q2FmZUJsdWVCb3R0bGUtc2VjcmV0LWtleS0wMDAx';

export const issuedApiKey = named(
  'IssuedApiKey',
  z.object({
    id: z.uuid(),
    name: z.string(),
    prefix: z.string().describe('The first characters of the key, to tell keys apart'),
    key: z.string().describe('The secret: shown in this answer only, never again'),
    created_at: isoTime,
  }),
  {
    id: 'c4a8e2f6-1b3d-4e5a-8f7c-9d0b2a6e4c13',
    name: 'onboarding',
    prefix: 'ctk_sk_Q2Fm',
    key: EXAMPLE_API_KEY,
    created_at: '2026-03-02T08:15:30.000Z',
  },
);
export type IssuedApiKey = z.infer<typeof issuedApiKey>;

export const apiKey = named(
  'ApiKey',
  z.object({ id: z.uuid(), name: z.string(), prefix: z.string(), created_at: isoTime, revoked_at: isoTime.nullable() }),
  {
    id: 'c4a8e2f6-1b3d-4e5a-8f7c-9d0b2a6e4c13',
    name: 'onboarding',
    prefix: 'ctk_sk_Q2Fm',
    created_at: '2026-03-02T08:15:30.000Z',
    revoked_at: null,
  },
);
export type ApiKeyAnswer = z.infer<typeof apiKey>;
export const apiKeyPage = pageOf('ApiKey', apiKey);

export const revoked = named('Revoked', z.object({ id: z.uuid(), revoked: z.literal(true) }), {
  id: 'c4a8e2f6-1b3d-4e5a-8f7c-9d0b2a6e4c13',
  revoked: true,
});

export const member = named(
  'Member',
  z.object({
    user_id: z.uuid(),
    name: z.string().nullable(),
    email: z.string().nullable(),
    did: z.string().nullable(),
    role: roleAnswer,
    created_at: isoTime,
  }),
  {
    user_id: '5e9d1c7b-2a4f-4c8e-b6d3-0f8a2e5c7b91',
    name: 'Ben Okafor',
    email: 'ben@bluebottle.example',
    did: null,
    role: 'staff',
    created_at: '2026-03-02T09:00:12.000Z',
  },
);
export type MemberAnswer = z.infer<typeof member>;
export const memberPage = pageOf('Member', member);

export const addedMember = named(
  'AddedMember',
  z.object({ member, api_key: issuedApiKey.optional().describe('Only when the member is a new user: their first API key') }),
  {
    member: {
      user_id: '5e9d1c7b-2a4f-4c8e-b6d3-0f8a2e5c7b91',
      name: 'Ben Okafor',
      email: 'ben@bluebottle.example',
      did: null,
      role: 'staff',
      created_at: '2026-03-02T09:00:12.000Z',
    },
    api_key: {
      id: '7a1d3e5f-9b2c-4d6e-8f0a-1c3e5a7b9d24',
      name: 'member of blue-bottle-cafe',
      prefix: 'ctk_sk_QmVu',
      key: 'ctk_sk_QmVuT2thZm9yLWJsdWUtYm90dGxlLWtleS0wMDAy',
      created_at: '2026-03-02T09:00:12.000Z',
    },
  },
);
export type AddedMember = z.infer<typeof addedMember>;

export const changedMember = named('ChangedMember', z.object({ member }), {
  member: {
    user_id: '5e9d1c7b-2a4f-4c8e-b6d3-0f8a2e5c7b91',
    name: 'Ben Okafor',
    email: 'ben@bluebottle.example',
    did: null,
    role: 'admin',
    created_at: '2026-03-02T09:00:12.000Z',
  },
});

export const removedMember = named('RemovedMember', z.object({ user_id: z.uuid(), removed: z.literal(true) }), {
  user_id: '5e9d1c7b-2a4f-4c8e-b6d3-0f8a2e5c7b91',
  removed: true,
});

export const commerceKey = named(
  'CommerceKey',
  z.object({ commerce_public_key: z.string().describe('Publishable: it goes into the merchant’s web page') }),
  { commerce_public_key: 'ctk_pk_Qmx1ZUJvdHRsZUNhZmUtcHVibGlzaGFibGUta2V5LTAx' },
);

export const paygateKey = named(
  'PaygateKey',
  z.object({ id: z.uuid(), account_id: z.uuid(), prefix: z.string(), created_at: isoTime, revoked_at: isoTime.nullable() }),
  {
    id: 'e2b4d6f8-0a1c-4e3a-9b5d-7f9a1c3e5b60',
    account_id: '8c0e2a4b-6d8f-4a1c-b3e5-0a2c4e6b8d17',
    prefix: 'ctk_pg_UGF5',
    created_at: '2026-03-03T10:20:00.000Z',
    revoked_at: null,
  },
);
export type PaygateKeyAnswer = z.infer<typeof paygateKey>;
export const paygateKeyPage = pageOf('PaygateKey', paygateKey);

export const newPaygateKey = named(
  'NewPaygateKey',
  paygateKey.extend({ key: z.string().describe('The secret: shown in this answer only') }),
  {
    id: 'e2b4d6f8-0a1c-4e3a-9b5d-7f9a1c3e5b60',
    account_id: '8c0e2a4b-6d8f-4a1c-b3e5-0a2c4e6b8d17',
    prefix: 'ctk_pg_UGF5',
    key: 'ctk_pg_UGF5Z2F0ZS1ibHVlLWJvdHRsZS1jYWZlLWtleS0wMDE',
    created_at: '2026-03-03T10:20:00.000Z',
    revoked_at: null,
  },
);
