import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { describe, expect, it } from 'vitest';
import { diffSchemas } from '../src/db/migrate.js';

const read = (path: string) => readFile(fileURLToPath(new URL(path, import.meta.url)), 'utf8');
const FIXTURE_DIR = fileURLToPath(new URL('./fixtures/outbox', import.meta.url));

/** The `model OutboxEvent { ... }` block of a text, one space between tokens. */
function outboxModel(text: string): string {
  const model = /model OutboxEvent \{[^}]*\}/.exec(text.replace(/^\s*\*/gm, ''))?.[0] ?? '';
  return model.replace(/\s+/g, ' ');
}

describe('the outbox model', () => {
  it('is documented in outbox.ts and the README exactly as the test schema declares it', async () => {
    const schema = outboxModel(await read('./fixtures/outbox/schema.prisma'));
    expect(schema).toContain('@@map("outbox_events")');
    expect(outboxModel(await read('../src/events/outbox.ts'))).toBe(schema);
    expect(outboxModel(await read('../README.md'))).toBe(schema);
  });

  it('is created by the fixture migration, which is what diffSchemas writes for the schema', async () => {
    const pglite = new PGlite();
    try {
      const adapter = new PrismaPGlite(pglite) as unknown as SqlMigrationAwareDriverAdapterFactory;
      const sql = await diffSchemas(adapter, FIXTURE_DIR, undefined, await read('./fixtures/outbox/schema.prisma'));
      expect(await read('./fixtures/outbox/migrations/20260301000000_init/migration.sql')).toBe(sql);
    } finally {
      await pglite.close();
    }
  });
});
