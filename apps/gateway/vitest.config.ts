import { defineConfig } from 'vitest/config';
import { testTags } from '@ctk/shared/test-tags';

export default defineConfig({
  test: { testTimeout: 60_000, hookTimeout: 60_000, tags: testTags },
});
