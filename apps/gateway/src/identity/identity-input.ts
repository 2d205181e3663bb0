import { z } from 'zod';
import { organizationFields } from './organization-fields.js';
import { emailField, nameField } from '../routes/text-fields.js';

export const onboardBody = organizationFields.extend({
  user: z
    .object({ name: nameField(120).optional(), email: emailField.optional() })
    .strict()
    .optional(),
});

/** Request examples of onboarding and the organisation routes. */

export const onboardExample = {
  name: 'Blue Bottle Cafe',
  jurisdiction: 'US-CA',
  paymail_alias: 'cafe',
  receiving_address: '1NjCAJjzaniT3T22jyfU6NiWoPssArS4tR',
  identity_public_key: '0244b85467f6a0495e5c9d48748a2dafedee882b1f167cecdb76596ae6179ade54',
  category: 'cafe',
  user: { name: 'Ann Lee', email: 'ann@bluebottle.example' },
};

export const newOrganizationExample = { name: 'Blue Bottle Cafe Mission', handle: 'blue-bottle-mission', jurisdiction: 'US-CA' };

export const organizationUpdateExample = {
  wallet_xpub: 'xpub6DUg4uyurApbGebQGmkTAEEQByNDdJLcwvHS3R6aasS8fXhmRYzjqguSKpB6tjrHAH8MuokkybTd7npoxG6ScfcBnCw89L4ugV3EJoFGZMh',
  avatar_url: 'https://bluebottle.example/logo.png',
  latitude: 37.7764,
  longitude: -122.4231,
};
