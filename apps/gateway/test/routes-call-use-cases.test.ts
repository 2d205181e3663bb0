import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const SOURCE = new URL('../src/', import.meta.url);

/**
 * Routes, and the gateway's own services (src/<feature>/<feature>-service.ts), read input and call a use case
 * (src/<feature>/<verb>-<noun>.ts) or a service; only use cases talk to the database.
 */
describe('routes and the own services call use cases, not Prisma', () => {
  const files = readdirSync(SOURCE, { recursive: true, encoding: 'utf8' }).filter((file) => /-(routes|service)\.ts$/.test(file));
  it('covers every route file and own service', () => {
    expect(files.filter((file) => file.endsWith('-routes.ts')).length).toBeGreaterThan(10);
    expect(files).toEqual(
      expect.arrayContaining(['access/access-service.ts', 'identity/identity-service.ts', 'sign-in/sign-in-service.ts']),
    );
  });
  it.each(files)('%s has no database query', (file) => {
    expect(readFileSync(new URL(file, SOURCE), 'utf8')).not.toMatch(/\bprisma\b/i);
  });
});
