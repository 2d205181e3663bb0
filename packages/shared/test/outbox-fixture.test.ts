import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { describe, expect, it } from 'vitest';
import { fullSchema } from '../prisma/full-schema.mjs';
import { diffSchemas } from '../src/db/migrate.js';

const read = (path: string) => readFile(fileURLToPath(new URL(path, import.meta.url)), 'utf8');
const FIXTURE_DIR = fileURLToPath(new URL('./fixtures/outbox', import.meta.url));

describe('the outbox model', () => {
  it('is added to an app schema once, and an app that copies it is told to remove its copy', async () => {
    const whole = fullSchema(await read('./fixtures/outbox/schema.prisma'));
    expect(whole.match(/model OutboxEvent \{/g)).toHaveLength(1);
    expect(whole).toContain('@@map("outbox_events")');
    expect(() => fullSchema(whole)).toThrow(/declares OutboxEvent itself: remove it/);
  });

  it('is created by the fixture migration, which is what diffSchemas writes for the whole schema', async () => {
    const pglite = new PGlite();
    try {
      const adapter = new PrismaPGlite(pglite) as unknown as SqlMigrationAwareDriverAdapterFactory;
      const sql = await diffSchemas(adapter, FIXTURE_DIR, undefined, fullSchema(await read('./fixtures/outbox/schema.prisma')));
      expect(sql).toContain('CREATE TABLE "outbox_events"');
      expect(await read('./fixtures/outbox/migrations/20260301000000_init/migration.sql')).toBe(sql);
    } finally {
      await pglite.close();
    }
  });
});
