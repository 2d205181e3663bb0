import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const ROUTES = new URL('../src/routes/', import.meta.url);

/** Routes read input and call a use case (src/<feature>/<verb>-<noun>.ts) or a service; only use cases talk to the database. */
describe('routes call use cases, not Prisma', () => {
  const files = readdirSync(ROUTES).filter((file) => file.endsWith('-routes.ts'));
  it('covers every route file', () => expect(files.length).toBeGreaterThan(10));
  it.each(files)('%s has no database query', (file) => {
    expect(readFileSync(new URL(file, ROUTES), 'utf8')).not.toMatch(/\bprisma\b/i);
  });
});
