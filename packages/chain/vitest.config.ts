import { defineConfig } from 'vitest/config';
import { testTags } from '@ctk/shared/test-tags';

export default defineConfig({
  test: { testTimeout: 30_000, hookTimeout: 30_000, tags: testTags, isolate: false },
});
