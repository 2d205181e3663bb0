import { defineConfig } from 'vitest/config';
import { testTags } from '@ctk/shared/test-tags';

// PGlite's first in-memory start plus migrations takes a few seconds.
export default defineConfig({ test: { testTimeout: 30_000, hookTimeout: 30_000, tags: testTags, isolate: false } });
