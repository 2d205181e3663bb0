/** Request examples of the access routes (their schemas are still in routes/access-routes.ts). */

export const keyNameExample = { name: 'Till 2 at the counter' };
export const paygateKeyNameExample = { name: 'Blue Bottle paid API' };
export const newMemberExample = { name: 'Ben Okafor', email: 'ben@bluebottle.example', role: 'staff' as const };
export const memberRoleExample = { role: 'admin' as const };
