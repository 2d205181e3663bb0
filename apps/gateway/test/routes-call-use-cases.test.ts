import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/** Routes read input and call a use case (src/domain); only use cases and repositories talk to the database. */
describe('routes call use cases, not Prisma', () => {
  it.each(['identity-routes.ts', 'access-routes.ts', 'sign-in-routes.ts'])('%s has no database query', (file) => {
    const source = readFileSync(new URL(`../src/routes/${file}`, import.meta.url), 'utf8');
    expect(source).not.toMatch(/\bprisma\b/i);
  });
});
