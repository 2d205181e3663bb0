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

  it('is created by the fixture migrations: the first is what diffSchemas writes, and the last leaves nothing to write', async () => {
    const pglite = new PGlite();
    try {
      const adapter = new PrismaPGlite(pglite) as unknown as SqlMigrationAwareDriverAdapterFactory;
      const first = await read('./fixtures/outbox/migrations/20260301000000_init/schema.prisma');
      const sql = await diffSchemas(adapter, FIXTURE_DIR, undefined, first);
      expect(sql).toContain('CREATE TABLE "outbox_events"');
      expect(await read('./fixtures/outbox/migrations/20260301000000_init/migration.sql')).toBe(sql);
      const last = await read('./fixtures/outbox/migrations/20261201174200_outbox_unsent_index/schema.prisma');
      const whole = fullSchema(await read('./fixtures/outbox/schema.prisma'));
      expect(await diffSchemas(adapter, FIXTURE_DIR, last, whole)).toMatch(/^$|This is an empty migration/);
    } finally {
      await pglite.close();
    }
  });
});
