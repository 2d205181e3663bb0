import { z } from 'zod';
import { handleField } from '../identity/organization-fields.js';
import { emailField, nameField } from '../routes/text-fields.js';

export const role = z.enum(['owner', 'admin', 'staff']);
export const keyName = z.object({ name: nameField(100).default('API key') }).strict();
export const idParams = z.object({ id: z.uuid() });
export const memberParams = z.object({ handle: handleField, user_id: z.uuid() });
export const newMember = z.union([
  z.object({ user_id: z.uuid(), role }).strict(),
  z.object({ name: nameField(120), email: emailField.optional(), role }).strict(),
]);

/** Request examples of the access routes. */

export const keyNameExample = { name: 'Till 2 at the counter' };
export const paygateKeyNameExample = { name: 'Blue Bottle paid API' };
export const newMemberExample = { name: 'Ben Okafor', email: 'ben@bluebottle.example', role: 'staff' as const };
export const memberRoleExample = { role: 'admin' as const };
