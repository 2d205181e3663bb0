import { defineConfig } from 'vitest/config';
import { testTags } from '@ctk/shared/test-tags';

// Each test drives four services, the local chain and the wallet command line in this one process, on PGlite:
// 5 to 10 s for the longest on a quiet machine, over 30 s while CI's e2e job runs beside it.
export default defineConfig({ test: { testTimeout: 90_000, hookTimeout: 30_000, tags: testTags, isolate: false } });
