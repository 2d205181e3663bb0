#!/usr/bin/env node
// Creates a migration for the app in the current folder: `pnpm exec ctk-prisma-migration <name>`.
// It diffs the schema as of the last migration (kept beside it as schema.prisma) against the current
// schema (the app's own with @ctk/shared's outbox model, prisma/full-schema.mjs) with the WebAssembly
// schema engine, since `prisma migrate dev` cannot run offline (docs/decisions/0002-migrations.md).
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { diffSchemas } from '../dist/index.js';
import { fullSchema } from '../prisma/full-schema.mjs';

const name = process.argv[2];
if (!name || !/^[a-z0-9_]+$/.test(name)) {
  console.error('usage: prisma-migration.mjs <snake_case_name>');
  process.exit(2);
}
const migrationsDir = join('prisma', 'migrations');
const previous = existsSync(migrationsDir)
  ? readdirSync(migrationsDir)
      .filter((d) => /^\d{14}_/.test(d))
      .sort()
      .at(-1)
  : undefined;
const from = previous ? readFileSync(join(migrationsDir, previous, 'schema.prisma'), 'utf8') : undefined;
const to = fullSchema(readFileSync(join('prisma', 'schema.prisma'), 'utf8'));

const pglite = new PGlite();
const sql = await diffSchemas(new PrismaPGlite(pglite), 'prisma', from, to);
await pglite.close();
if (!sql.trim() || sql.includes('This is an empty migration')) {
  console.log('No schema changes.');
  process.exit(0);
}
const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
const dir = join(migrationsDir, `${stamp}_${name}`);
mkdirSync(dir, { recursive: true });
writeFileSync(join(dir, 'migration.sql'), sql);
writeFileSync(join(dir, 'schema.prisma'), to);
console.log(`Created ${dir}`);
