import { defineConfig } from 'vitest/config';
import { testTags } from '@ctk/shared/test-tags';

// A test that starts federation opens its database first (PGlite: a copy of the migrated template, or migrations
// applied): on a busy 2-core machine that took past vitest's default 10 s for a hook.
export default defineConfig({ test: { testTimeout: 30_000, hookTimeout: 30_000, tags: testTags } });
